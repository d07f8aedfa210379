fn main() {
    println!("outside src");
}

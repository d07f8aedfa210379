fn main() { println!("hi"); }

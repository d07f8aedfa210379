// ANCHOR: all
/// Divides `a` by `b`, or says why the quotient does not exist in `i32`.
fn quotient(a: i32, b: i32) -> Result<i32, &'static str> {
    a.checked_div(b).ok_or(if b == 0 {
        "division by zero"
    } else {
        "the quotient does not fit in i32"
    })
}

fn main() {
    for (a, b) in [(7, 2), (-7, 2), (7, 0), (i32::MIN, -1)] {
        match quotient(a, b) {
            Ok(q) => println!("{a} / {b} = {q}"),
            Err(why) => println!("{a} / {b}: {why}"),
        }
    }
}
// ANCHOR_END: all

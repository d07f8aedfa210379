//! The book of every checker (`sanitize=`): AddressSanitizer,
//! ThreadSanitizer, UBSan and Memcheck claims that hold and that do not,
//! and how a report names its sides. Shared by the testsuite (a missing
//! Valgrind) and the Valgrind target (`tests/valgrind/`), which includes
//! this file.

use super::run::line_of;

/// The book of every checker, one chapter (`src/s.md`).
pub const SANITIZED: &str = r#"# Checkers

`````compare title="Freeing"
```c caption="use after free" expect=ub sanitize=address
~ #include <stdlib.h>
int main(void) { int *p = malloc(sizeof *p); *p = 1; free(p); return *p; }
```

```output
AddressSanitizer: heap-use-after-free [..]
READ of size 4 [..]
```

```c caption="double free, said to be use after free" expect=ub sanitize=address
~ #include <stdlib.h>
int main(void) { int *p = malloc(4); free(p); free(p); return 0; }
```

```output
heap-use-after-free
```

```c caption="a leak under expect=run" expect=run sanitize="address,undefined"
~ #include <stdlib.h>
int main(void) { void *volatile p = malloc(64); p = 0; return 0; }
```

```rust caption="Rust under Memcheck" sanitize=memcheck
fn main() { let v = vec![1, 2, 3]; println!("{}", v.iter().sum::<i32>()); }
```

```output
6
```
`````

`````compare title="Races"
```c caption="racy counter" expect=ub sanitize=thread
~ #include <pthread.h>
~ static long n;
~ static void *work(void *a) { (void)a; for (int i = 0; i < 1000; i++) n++; return 0; }
int main(void) { pthread_t t[2]; for (int i = 0; i < 2; i++) pthread_create(&t[i], 0, work, 0); for (int i = 0; i < 2; i++) pthread_join(t[i], 0); return 0; }
```

```output
ThreadSanitizer: data race
```

```c caption="one thread" expect=ub sanitize=thread
int main(void) { return 0; }
```

```c caption="clean under two" expect=run sanitize="thread,undefined"
~ #include <stdio.h>
int main(void) { printf("%d\n", 40 + 2); return 0; }
```

```output
42
```

```c caption="overflow" expect=ub sanitize=undefined
~ #include <limits.h>
int main(void) { volatile int x = INT_MAX; x += 1; return 0; }
```

```output
signed integer overflow
```
`````

`````compare title="Uninitialised"
```c caption="uninitialised read" expect=ub sanitize=memcheck
~ #include <stdio.h>
~ int more(void) { return 0; }
int main(void) { int x; while (more()) x = 42; if (x == 42) puts("42"); return 0; }
```

```output
Conditional jump or move depends on uninitialised value(s)
   at 0x[..]: main (main.c:[..])
```

```c caption="nothing uninitialised" expect=ub sanitize=memcheck
int main(void) { return 0; }
```

```c caption="said to be clean" expect=run sanitize=memcheck
~ #include <stdio.h>
int main(void) { int x; if (x > 0) puts("positive"); return 0; }
```

```cpp caption="a pointer into a vector that grew" expect=ub sanitize=address
~ #include <iostream>
~ #include <vector>
int main() { std::vector<int> v(3); int *p = v.data(); v.push_back(1); v.push_back(2); std::cout << p[0] << std::endl; }
```

```output
AddressSanitizer: heap-use-after-free
```
`````
"#;

/// `src/s.md:LINE`, where the side captioned `caption` opens.
pub fn at(caption: &str) -> String {
    format!(
        "src/s.md:{}",
        line_of(SANITIZED, &format!("caption=\"{caption}\""))
    )
}

/// How a report names the side captioned `caption`.
pub fn side(caption: &str) -> String {
    format!("{}: compare side \"{caption}\"", at(caption))
}

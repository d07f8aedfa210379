//! The Go compiler's `-S` listing ([`ListingFormat::Go`]) filtered to the
//! reader's functions: each kept function's label (`main.divide:`) and
//! its instructions, with the line of the block's file each came from;
//! the pseudo-instructions that carry no machine code (`TEXT`,
//! `FUNCDATA`, `PCDATA`), hex dumps and relocations dropped, and jumps to
//! an offset given a label (`JEQ L44`) the listing shows.
//!
//! [`ListingFormat::Go`]: mdbook_companion_core::languages::ListingFormat::Go

use mdbook_companion_core::asm::Listing;

/// One instruction line of the listing: `\t0x000c 00012 (main.go:6)\tTESTQ\tBX, BX`.
struct Instruction<'a> {
    /// Its offset in the function (the decimal column), what jumps name.
    pc: u32,
    /// Where it came from: `main.go:6`, `$GOROOT/src/fmt/print.go:294`,
    /// `<unknown line number>`.
    place: &'a str,
    /// The mnemonic (`TESTQ`).
    mnemonic: &'a str,
    /// Its operands, as printed.
    operands: &'a str,
}

/// Reads an instruction line; `None` for any other line (a function's
/// header, a hex dump, a relocation).
fn instruction(line: &str) -> Option<Instruction<'_>> {
    let mut fields = line.strip_prefix('\t')?.split('\t');
    let head = fields.next()?;
    let mnemonic = fields.next()?;
    let operands = fields.next().unwrap_or("");
    let rest = head.strip_prefix("0x")?;
    let (_, rest) = rest.split_once(' ')?;
    let (pc, place) = rest.split_once(' ')?;
    let place = place.strip_prefix('(')?.strip_suffix(')')?;
    Some(Instruction {
        pc: pc.parse().ok()?,
        place,
        mnemonic,
        operands,
    })
}

/// The line of `file` an instruction came from (0 for another file or
/// none).
fn own_line(place: &str, file: &str) -> u32 {
    let Some((path, line)) = place.rsplit_once(':') else {
        return 0;
    };
    let base = path.rsplit('/').next().unwrap_or(path);
    match base == file {
        true => line.parse().unwrap_or(0),
        false => 0,
    }
}

/// The offset a jump goes to, when its operand is one.
fn target(ins: &Instruction<'_>) -> Option<u32> {
    match ins.mnemonic.starts_with('J') {
        true => ins.operands.parse().ok(),
        false => None,
    }
}

/// Keeps the functions of `listing` whose last name (`divide` of
/// `main.divide`, of `main.(*T).divide`) is one of `keep`, each line with
/// its line of `file`; functions are separated by a blank line, in
/// listing order.
pub(super) fn filter(listing: &str, keep: &[String], file: &str) -> Listing {
    let mut out = Listing::default();
    let mut push = |text: String, line: u32| {
        out.text.push_str(&text);
        out.text.push('\n');
        out.lines.push(line);
    };
    let mut lines = listing.lines().peekable();
    let mut first = true;
    while let Some(line) = lines.next() {
        let Some((symbol, _)) = line
            .split_once(" STEXT")
            .filter(|_| !line.starts_with([' ', '\t']))
        else {
            continue;
        };
        let mut body = Vec::new();
        while let Some(next) = lines.next_if(|l| l.starts_with([' ', '\t'])) {
            body.extend(instruction(next));
        }
        let last = symbol.rsplit('.').next().unwrap_or(symbol);
        if !keep.iter().any(|k| k == last) {
            continue;
        }
        if !first {
            push(String::new(), 0);
        }
        first = false;
        push(format!("{symbol}:"), 0);
        let targets: Vec<u32> = body.iter().filter_map(target).collect();
        let mut labelled = Vec::new();
        for ins in &body {
            if matches!(ins.mnemonic, "TEXT" | "FUNCDATA" | "PCDATA") {
                continue;
            }
            if targets.contains(&ins.pc) && !labelled.contains(&ins.pc) {
                labelled.push(ins.pc);
                push(format!("L{}:", ins.pc), 0);
            }
            let text = match (target(ins), ins.operands) {
                (Some(pc), _) => format!("    {} L{pc}", ins.mnemonic),
                (None, "") => format!("    {}", ins.mnemonic),
                (None, operands) => format!("    {} {operands}", ins.mnemonic),
            };
            push(text, own_line(ins.place, file));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pretty_assertions::assert_eq;

    /// `go build -gcflags=-S` of a `divide` and a `main` (Go 1.19,
    /// x86-64), shortened.
    const LISTING: &str = "# command-line-arguments
main.divide STEXT nosplit size=50 args=0x10 locals=0x8 funcid=0x0 align=0x0
\t0x0000 00000 (/tmp/x/main.go:5)\tTEXT\tmain.divide(SB), NOSPLIT|ABIInternal, $8-16
\t0x000c 00012 (/tmp/x/main.go:5)\tFUNCDATA\t$0, gclocals·g2BeySu+wFnoycgXfElmcg==(SB)
\t0x000c 00012 (/tmp/x/main.go:6)\tTESTQ\tBX, BX
\t0x000f 00015 (/tmp/x/main.go:6)\tJEQ\t44
\t0x0019 00025 (/tmp/x/main.go:6)\tIDIVQ\tBX
\t0x002b 00043 (/tmp/x/main.go:6)\tRET
\t0x002c 00044 (/tmp/x/main.go:6)\tPCDATA\t$1, $0
\t0x002c 00044 (/tmp/x/main.go:6)\tCALL\truntime.panicdivide(SB)
\t0x0000 48 83 ec 08 48 89 2c 24 48 8d 2c 24 48 85 db 74  H...H.,$H.,$H..t
\trel 45+4 t=7 runtime.panicdivide+0
main.main STEXT size=104 args=0x0 locals=0x40 funcid=0x0 align=0x0
\t0x0000 00000 (/tmp/x/main.go:9)\tTEXT\tmain.main(SB), ABIInternal, $64-0
\t0x0036 00054 ($GOROOT/src/fmt/print.go:294)\tMOVQ\tos.Stdout(SB), BX
\t0x0056 00086 (/tmp/x/main.go:11)\tRET
go.cuinfo.packagename.main SDWARFCUINFO dupok size=0
\t0x0000 6d 61 69 6e                                      main
";

    #[test]
    fn keeps_the_readers_functions_with_their_lines() {
        let divide = filter(LISTING, &["divide".into()], "main.go");
        assert_eq!(
            divide.text,
            "main.divide:\n    TESTQ BX, BX\n    JEQ L44\n    IDIVQ BX\n    RET\nL44:\n    CALL runtime.panicdivide(SB)\n"
        );
        assert_eq!(divide.lines, [0, 6, 6, 6, 6, 0, 6]);
        let both = filter(LISTING, &["divide".into(), "main".into()], "main.go");
        assert!(
            both.text
                .ends_with("\nmain.main:\n    MOVQ os.Stdout(SB), BX\n    RET\n")
        );
        assert_eq!(both.lines[both.lines.len() - 2..], [0, 11]);
        assert_eq!(
            filter(LISTING, &["other".into()], "main.go"),
            Listing::default()
        );
    }
}

"""A book.toml without its other [preprocessor.*] tables (those of
mdbook-companion kept): for a book whose own preprocessors cannot run
here. Rewrites the file named by its one argument (a scratch copy's)."""
import re
import sys

path = sys.argv[1]
out, skip = [], False
for line in open(path).read().splitlines(keepends=True):
    head = re.match(r"\s*\[([^\]]+)\]", line)
    if head:
        skip = head.group(1).startswith("preprocessor.") and head.group(1) != "preprocessor.companion"
    if not skip:
        out.append(line)
open(path, "w").write("".join(out))

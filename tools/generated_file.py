"""The write-or-check step shared by the generators in tools/ (generate_stubs.py,
generate_cuda_library_stubs.py, generate_deferring.py): write the generated text, or with
--check compare it with the checked-in file, print the difference and say how to regenerate."""

import difflib
import sys


def write_or_check(path, text, check, root, command, why=""):
    """Writes ``text`` to ``path`` (check false) or compares them; returns the exit status
    (1: the checked-in file is stale). ``command`` regenerates the file; ``why`` says what
    makes it stale."""
    rel = path.relative_to(root)
    if not check:
        path.write_text(text)
        print(f"wrote {rel}")
        return 0
    old = path.read_text() if path.exists() else ""
    if old == text:
        print(f"{rel} is up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                               f"{rel} (checked in)", f"{rel} (generated)"))
    print(f"{rel} is stale{': ' + why if why else ''}. Regenerate it with `{command}` and "
          "commit it.", file=sys.stderr)
    return 1

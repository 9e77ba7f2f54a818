#!/usr/bin/env python3
"""No production function is longer than 80 lines (docs/contributing.md).

Reads every .cc and .h of the production folders (tests, fuzzers and mains
excepted: a test reads top to bottom), finds each function body from its
braces (strings, characters and comments skipped), and prints each one over
the limit with its length. A ctest entry; exits 1 when one is found.
"""
import pathlib
import re
import sys

LIMIT = 80
FOLDERS = ["common", "store", "policy", "ingest", "optimizer", "services"]
# What opens a scope that holds functions rather than being one.
SCOPE = re.compile(r"\b(namespace|class|struct|union|enum)\b[^()]*$|\bextern\s+\"C\"\s*$")


def code_only(text):
    """The text with comments, strings and character literals blanked, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + m.group(1) + '"', i) if m else -1
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and digit_separator(text, i):
            out.append(c)
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j, n - 1) - i + 1))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def digit_separator(text, i):
    """Whether the quote at i separates digits (1'000), not opens a character."""
    start = i
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    return start < i and text[start].isdigit()


def long_functions(path):
    code = code_only(path.read_text(encoding="utf-8"))
    stack = []  # per open brace: "scope", "function" (with its start line) or "inner"
    line, start_of_statement = 1, 0
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            head = code[start_of_statement:i].strip()
            if stack and stack[-1][0] != "scope":
                stack.append(("inner", 0))
            elif SCOPE.search(head) or not head.endswith(")") and not re.search(r"\)[\w\s:&<>,()-]*$", head):
                stack.append(("scope", 0))
            elif re.search(r"=\s*[^=]*$", head.split("(")[0]):
                stack.append(("inner", 0))  # an initializer, a lambda held by a variable
            else:
                stack.append(("function", code.count("\n", 0, start_of_statement) + 1 + leading_newlines(head, code, start_of_statement)))
            start_of_statement = i + 1
        elif c == "}":
            if stack:
                kind, first = stack.pop()
                if kind == "function" and line - first + 1 > LIMIT:
                    yield first, line - first + 1
            start_of_statement = i + 1
        elif c == ";":
            start_of_statement = i + 1
    return


def leading_newlines(head, code, start):
    """Lines between the end of the previous statement and the function's first word."""
    segment = code[start:]
    stripped = len(segment) - len(segment.lstrip())
    return segment[:stripped].count("\n")


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
    found = 0
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".cc", ".h") or path.name.endswith("_test.cc") or path.name == "main.cc":
                continue
            if "fuzz" in path.name or "/testing/" in str(path):
                continue
            for first, length in long_functions(path):
                print(f"{path.relative_to(root)}:{first}: a function of {length} lines (at most {LIMIT})", file=sys.stderr)
                found += 1
    if found:
        print(f"function length: {found} function(s) over {LIMIT} lines; split them (docs/contributing.md)", file=sys.stderr)
        return 1
    print(f"function length: every production function is at most {LIMIT} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())

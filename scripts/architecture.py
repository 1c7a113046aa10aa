#!/usr/bin/env python3
"""Prints five figures of the code's shape and fails when one is over its limit:

1. import cycles among the top-level modules of server/src (limit 0);
2. source files over 400 lines in app/src and server/src (limit 0; demo content and test
   modules aside);
3. functions over 80 lines (limit 0: none is left, and a long one is split where it reads best);
4. SQL outside the areas' `queries.rs` files (or a `queries/` folder) and `db/` (limit 0);
5. transactions begun other than through `db::write` (limit 0): a deferred transaction that
   reads before it writes fails at once when another connection wrote in between.

Run from anywhere: `python3 scripts/architecture.py` (the test command runs it).
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "server" / "src"
SOURCES = [ROOT / "app" / "src", SERVER]
MAX_FILE_LINES = 400
MAX_FN_LINES = 80
MAX_LONG_FNS = 0

BEGIN_CALL = re.compile(r"\.begin(_with)?\(")
SQL_CALL = re.compile(r"\bsqlx::(query|query_as|query_scalar|query_with|query_as_with)\b|\bQueryBuilder\b")


def rust_files():
    for base in SOURCES:
        yield from sorted(base.rglob("*.rs"))


def rel(path):
    return path.relative_to(ROOT).as_posix()


def is_demo(path):
    return (SERVER / "demo") in path.parents


def strip_tests(text):
    """The file without its `#[cfg(test)]` module (unit tests are not counted)."""
    at = text.find("#[cfg(test)]\nmod tests")
    return text if at < 0 else text[:at]


def blank_literals(text):
    """Comments, strings and chars replaced by spaces (newlines kept), for brace matching."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:i + 10]) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = '"' + hashes
            j = text.find(end, i + 2 + len(hashes))
            j = n if j < 0 else j + len(end)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'" and re.match(r"'(\\.|[^\\'])'", text[i:i + 4]) or (c == "'" and re.match(r"'\\u\{[0-9a-fA-F]+\}'", text[i:i + 12])):
            m = re.match(r"'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'", text[i:])
            out.append(" " * len(m.group(0)))
            i += len(m.group(0))
        else:
            out.append(c)
            i += 1
    return "".join(out)


def long_functions(path, text):
    code = blank_literals(strip_tests(text))
    found = []
    for m in re.finditer(r"\bfn\s+(\w+)", code):
        brace = code.find("{", m.end())
        semi = code.find(";", m.end())
        if brace < 0 or (0 <= semi < brace):
            continue  # a declaration without a body
        depth, j = 0, brace
        while j < len(code):
            if code[j] == "{":
                depth += 1
            elif code[j] == "}":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        start = code.count("\n", 0, m.start()) + 1
        end = code.count("\n", 0, j) + 1
        if end - start + 1 > MAX_FN_LINES:
            found.append((f"{rel(path)}:{start}", m.group(1), end - start + 1))
    return found


def top_module(path):
    parts = path.relative_to(SERVER).parts
    name = parts[0]
    return name[:-3] if name.endswith(".rs") else name


def module_cycles():
    tops = {top_module(p) for p in SERVER.rglob("*.rs")} - {"main"}
    edges = {t: set() for t in tops}
    for path in SERVER.rglob("*.rs"):
        src = top_module(path)
        if src == "main":
            continue
        code = blank_literals(path.read_text(encoding="utf-8"))
        names = set(re.findall(r"\bcrate::(\w+)", code))
        for group in re.findall(r"\bcrate::\{([^}]*)\}", code):
            names |= set(re.findall(r"\b(\w+)", group))
        for name in names:
            if name in tops and name != src:
                edges[src].add(name)
    # Tarjan's strongly connected components.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            sccs.append(sorted(scc))

    for v in sorted(tops):
        if v not in index:
            visit(v)
    return [s for s in sccs if len(s) > 1], edges


def sql_outside_queries():
    found = []
    for path in SERVER.rglob("*.rs"):
        r = path.relative_to(SERVER)
        if r.name == "queries.rs" or "queries" in r.parts[:-1] or r.parts[0] == "db":
            continue
        code = strip_tests(path.read_text(encoding="utf-8"))
        for m in SQL_CALL.finditer(code):
            found.append(f"{rel(path)}:{code.count(chr(10), 0, m.start()) + 1}")
    return found


def transactions_outside_db_write():
    found = []
    for path in SERVER.rglob("*.rs"):
        if path == SERVER / "db" / "mod.rs":
            continue
        code = strip_tests(path.read_text(encoding="utf-8"))
        for m in BEGIN_CALL.finditer(code):
            found.append(f"{rel(path)}:{code.count(chr(10), 0, m.start()) + 1}")
    return found


def main():
    cycles, _ = module_cycles()
    big_files, long_fns = [], []
    for path in rust_files():
        text = path.read_text(encoding="utf-8")
        if not is_demo(path):
            lines = strip_tests(text).count("\n")
            if lines > MAX_FILE_LINES:
                big_files.append((rel(path), lines))
        long_fns += long_functions(path, text)
    sql = sql_outside_queries()

    failed = False

    def figure(label, value, limit, details):
        nonlocal failed
        over = value > limit
        failed |= over
        print(f"{'FAIL' if over else 'ok  '} {label}: {value} (limit {limit})")
        if over or "-v" in sys.argv:
            for d in details:
                print(f"       {d}")

    figure("import cycles among server/src's top-level modules", len(cycles), 0,
           [" -> ".join(c) for c in cycles])
    figure(f"source files over {MAX_FILE_LINES} lines", len(big_files), 0,
           [f"{p}: {n}" for p, n in big_files])
    figure(f"functions over {MAX_FN_LINES} lines", len(long_fns), MAX_LONG_FNS,
           [f"{at} {name}: {n}" for at, name, n in long_fns])
    figure("SQL outside queries.rs and db/", len(sql), 0, sql)
    begun = transactions_outside_db_write()
    figure("transactions not begun by db::write", len(begun), 0, begun)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

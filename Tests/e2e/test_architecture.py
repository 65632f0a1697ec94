"""The rooms of ARCHITECTURE.md keep their walls: which folders may call which C library, and that
the caches and indexes (Index/) know no command."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORE = ROOT / "Sources" / "DaybookCore"


def swift_files():
    return sorted((ROOT / "Sources").rglob("*.swift"))


def importers(module):
    pattern = re.compile(rf"^\s*(@\w+\s+)?import\s+{module}\b", re.M)
    return {p.relative_to(ROOT).as_posix() for p in swift_files() if pattern.search(p.read_text(encoding="utf-8"))}


def test_only_git_calls_libgit2():
    found = importers("CLibGit2")
    assert found, "the Git room imports CLibGit2"
    outside = sorted(p for p in found if not p.startswith("Sources/DaybookCore/Git/"))
    assert outside == [], f"files outside Git/ import CLibGit2: {outside}"


def test_only_markdown_calls_cmark():
    found = importers("CCmarkGFM")
    assert found
    outside = sorted(p for p in found if not p.startswith("Sources/DaybookCore/Markdown/"))
    assert outside == [], f"files outside Markdown/ import CCmarkGFM: {outside}"


def test_only_typeset_calls_pango_and_cairo():
    found = importers("CPangoCairo")
    assert found, "the Typeset room imports CPangoCairo"
    outside = sorted(p for p in found if not p.startswith("Sources/DaybookCore/Typeset/"))
    assert outside == [], f"files outside Typeset/ import CPangoCairo: {outside}"


def test_typeset_knows_no_diary():
    """Typeset/ lays out blocks: an entry, a coding or the diary is Export/'s to turn into blocks."""
    problems = []
    for path in sorted((CORE / "Typeset").glob("*.swift")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//", 1)[0]
            if re.search(r"\b(?:Entry|Diary|Coding|Codebook|ExportContext|StrokeFile|Markdown\w*)\b", code):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert problems == [], "Typeset/ names a diary's types:\n" + "\n".join(problems)


def test_index_names_no_command():
    verbs = sorted(p.stem.removeprefix("daybook-") for p in (ROOT / "man" / "man1").glob("daybook-*.1"))
    assert "grep" in verbs and "stats" in verbs
    # A command named in a comment: `grep`, `tag ls`, "daybook stats", or the words grep, stats and
    # streak (a name the file declares itself, such as a variable `stats` of stat results, is not).
    named = re.compile(r"`(?:daybook )?(%s)(?=[ `])|\bdaybook (%s)\b|\b(grep|stats|streak)\b" % ("|".join(verbs), "|".join(verbs)))
    # Query/ types that only a command's question needs.
    asks = re.compile(r"\b(?:Grep|GrepOptions|EntryFilter|CompiledFilter|Streak|DateExpression|EntryReference|WordIndexPolicy)\b")
    problems = []
    for path in sorted((CORE / "Index").glob("*.swift")):
        text = path.read_text(encoding="utf-8")
        declared = set(re.findall(r"\b(?:var|let|func)\s+(\w+)", text))
        for number, line in enumerate(text.splitlines(), 1):
            comment = line.split("//", 1)[1] if "//" in line else ""
            said = [w for m in named.finditer(comment) for w in m.groups() if w and w not in declared]
            if said or asks.search(line):
                problems.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert problems == [], "Index/ mentions a command:\n" + "\n".join(problems)


def test_architecture_names_every_room():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    rooms = sorted(p.name for p in CORE.iterdir() if p.is_dir() and any(p.rglob("*.swift")))
    missing = [r for r in rooms if f"`{r}/`" not in text]
    assert missing == [], f"ARCHITECTURE.md does not name the rooms {missing}"

"""Reliability of coding (issue 17, "Reliability of coding"; issue 42, "Intercoder reliability as
reviewers compute it"): Krippendorff's alpha beside Cohen's kappa, by entry and per character, the
text only one of the coders coded; a coding without coder: counted as the default coder's, as the
QDPX export counts it; and every figure checked against scikit-learn and the krippendorff package."""

import io
import csv
import math
import random
import zipfile
import xml.etree.ElementTree as ET

import krippendorff
import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score



def coded_diary(diary):
    diary.init()
    diary.ok("new", "Night", "-m", "The login failed again and again. I wrote it on paper.", "--date", "2026-11-02 22:00")
    diary.ok("new", "Day", "-m", "Quiet shift.", "--date", "2026-11-03 09:00")
    diary.ok("code", "add", "2026-11-02", "frustration", "--quote", "The login failed again", "--coder", "ann")
    diary.ok("code", "add", "2026-11-02", "frustration", "--quote", "failed again and again", "--coder", "bob")
    diary.ok("code", "add", "2026-11-03", "frustration", "--coder", "bob")


def test_alpha_and_the_text_both_coded(diary):
    coded_diary(diary)
    data = diary.ok("code", "stats", "--agreement", "ann", "bob", "--json").json()
    [row] = data["codes"]
    # Two entries: ann coded one, bob both. kappa: p_o = 0.5, p_e = 0.5·1 + 0.5·0 = 0.5 -> 0;
    # alpha: n = 4, n1 = 3, n0 = 1, d = 1 -> 1 - 3·1/3 = 0.
    assert (row["a"], row["b"], row["both"]) == (1, 2, 1)
    assert abs(row["kappa"]) < 1e-12 and abs(row["alpha"]) < 1e-12
    # "The login failed again" (22) and "failed again and again" (22) share "failed again" (12);
    # bob's whole-entry coding of "Quiet shift.\n" adds 13 characters only he coded.
    assert (row["chars_a"], row["chars_b"], row["chars_both"]) == (22, 22 + 13, 12)
    assert abs(row["overlap"] - 12 / (22 + 35 - 12)) < 1e-12
    table = diary.ok("code", "stats", "--agreement", "ann", "bob").out.splitlines()
    # The unit is named in the header.
    assert table[0].startswith("Agreement of ann and bob by entry:") and "2 entries both coded" in table[0]
    assert "alpha" in table[1] and "text both" in table[1]
    assert table[2].split()[:4] == ["frustration", "50.0", "%", "0.000"]
    assert table[3].split()[:4] == ["(all", "codes)", "50.0", "%"]
    chars = diary.ok("code", "stats", "--agreement", "ann", "bob", "--unit", "character").out.splitlines()
    assert chars[0].startswith("Agreement of ann and bob per character:")
    # 55 + 13 characters; ann 22, bob 35, both 12, neither 68 − 45 = 23: agreement 35 / 68.
    assert chars[2].split()[:3] == ["frustration", f"{100 * 35 / 68:.1f}", "%"]


def test_disagreements_list_the_text_only_one_coded(diary):
    coded_diary(diary)
    r = diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--json").json()
    got = [(d["id"][:10], d["coder"], d["text"]) for d in r["disagreements"]]
    assert got == [("2026-11-02", "ann", "The login "), ("2026-11-02", "bob", " and again"), ("2026-11-03", "bob", "Quiet shift.\n")]
    text = diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements").out
    assert 'frustration  only ann  [0–10]  "The login "' in text
    # Agreeing coders: nothing to list, exit 1; without --agreement, a usage error.
    assert diary.run("code", "stats", "--agreement", "ann", "ann", "--disagreements").rc == 1
    assert diary.run("code", "stats", "--disagreements").rc == 2


def test_a_coder_who_coded_nothing_is_an_error_naming_the_diarys_coders(diary):
    coded_diary(diary)
    r = diary.run("code", "stats", "--agreement", "ann", "bobb")
    assert r.rc == 2 and r.out == ""
    assert 'no coding in the diary is by "bobb": its coders are ann, bob' in r.err
    # A coder of the diary who coded none of the filtered entries: a warning, and the figures.
    r = diary.run("code", "stats", "--agreement", "ann", "bob", "--to", "2026-11-02", "--json")
    assert r.rc == 0 and "ann made no coding" not in r.err
    r = diary.run("code", "stats", "--agreement", "ann", "bob", "--from", "2026-11-03", "--json")
    assert r.rc == 0 and "warning: ann made no coding in these entries" in r.err
    assert diary.run("code", "stats", "--unit", "entry").rc == 2
    assert diary.run("code", "stats", "--agreement", "ann", "bob", "--csv", "--json").rc == 2


# --- the reference: what daybook's own QDPX export holds, computed by the reference libraries ---

def qdpx_codings(path):
    """From a QDPX file: the coders, and per source its length and its selections as
    (code, coder, start, end)."""
    ns = {"q": "urn:QDA-XML:project:1.0"}
    with zipfile.ZipFile(path) as z:
        root = ET.fromstring(z.read("project.qde"))
        users = {u.get("guid"): u.get("name") for u in root.iterfind(".//q:Users/q:User", ns)}
        codes = {c.get("guid"): c.get("name") for c in root.iterfind(".//q:CodeBook//q:Code", ns)}
        sources = []
        for src in root.iterfind(".//q:Sources/q:TextSource", ns):
            text = z.read("sources/" + src.get("plainTextPath").removeprefix("internal://")).decode("utf-8")
            sels = []
            for sel in src.iterfind("q:PlainTextSelection", ns):
                coding = sel.find("q:Coding", ns)
                code = codes[coding.find("q:CodeRef", ns).get("targetGUID")]
                sels.append((code, users.get(coding.get("creatingUser")), int(sel.get("startPosition")), int(sel.get("endPosition"))))
            sources.append((len(text), sels))  # len(): code points, the Unicode scalars REFI-QDA counts
    return sorted(set(users.values())), sources


def reference(sources, a, b, only_both_coded=False):
    """Per code and pooled: the coders' yes/no vectors by entry and per character, from the
    export's selections."""
    def coded(sels, who):
        return any(c == who for (_, c, _, _) in sels)
    kept = [(n, sels) for n, sels in sources if not only_both_coded or (coded(sels, a) and coded(sels, b))]
    names = sorted({code for _, sels in kept for (code, who, _, _) in sels if who in (a, b)})
    out = {}
    for code in names:
        ent = ([], [])
        chars = ([], [])
        for n, sels in kept:
            for k, who in enumerate((a, b)):
                mine = [(s, e) for (c, w, s, e) in sels if c == code and w == who]
                ent[k].append(1 if mine else 0)
                cover = [0] * n
                for s, e in mine:
                    for i in range(s, e):
                        cover[i] = 1
                chars[k].extend(cover)
        out[code] = (ent, chars)
    return out


def kappa(x, y):
    return None if len(set(x) | set(y)) < 2 else float(cohen_kappa_score(x, y))


def alpha(x, y):
    return None if len(set(x) | set(y)) < 2 else float(krippendorff.alpha(reliability_data=[x, y], level_of_measurement="nominal"))


def agree(x, y):
    return sum(1 for p, q in zip(x, y) if p == q) / len(x)


def close(got, want):
    if want is None or (isinstance(want, float) and math.isnan(want)):
        return got is None
    return got is not None and abs(got - want) < 1e-9


def check_against(report, ref):
    assert sorted(r["code"] for r in report["codes"]) == sorted(ref)
    pooled = {"entry": ([], []), "character": ([], [])}
    for row in report["codes"]:
        ent, chars = ref[row["code"]]
        for unit, (x, y) in (("entry", ent), ("character", chars)):
            t = row["by_" + unit]
            assert (t["units"], t["a"], t["b"], t["both"]) == (len(x), sum(x), sum(y), sum(p & q for p, q in zip(x, y))), (row["code"], unit)
            assert close(t["agreement"], agree(x, y)), (row["code"], unit)
            assert close(t["kappa"], kappa(x, y)), (row["code"], unit, t["kappa"], kappa(x, y))
            assert close(t["alpha"], alpha(x, y)), (row["code"], unit, t["alpha"], alpha(x, y))
            pooled[unit][0].extend(x)
            pooled[unit][1].extend(y)
        assert close(row["kappa"], kappa(*ent)) and close(row["alpha"], alpha(*ent))
    for unit, (x, y) in pooled.items():
        t = report["overall"]["by_" + unit]
        assert t["units"] == len(x) and close(t["kappa"], kappa(x, y)) and close(t["alpha"], alpha(x, y)), unit


def test_agreement_on_the_example_is_what_its_qdpx_export_gives(example):
    """The trust defect: the example's `- trust` names no coder, so it is mp's (daybook.yml's
    coder) in the export, and so in the agreement."""
    out = example.tmp / "example.qdpx"
    example.ok("export", "qdpx", "-o", out)
    coders, sources = qdpx_codings(out)
    assert coders == ["ak", "mp"]
    ref = reference(sources, "mp", "ak")
    report = example.ok("code", "stats", "--agreement", "mp", "ak", "--json").json()
    check_against(report, ref)
    trust = next(r for r in report["codes"] if r["code"] == "trust")
    assert (trust["a"], trust["b"]) == (1, 0)
    # With --coded-by coding: only the entries both made a coding in, as MAXQDA's option.
    both = example.ok("code", "stats", "--agreement", "mp", "ak", "--coded-by", "coding", "--json").json()
    assert both["coded_by_both"] == 2 and both["entries"] == len(sources)
    check_against(both, reference(sources, "mp", "ak", only_both_coded=True))
    # CSV holds the same figures, per code and overall, by both units.
    rows = list(csv.DictReader(io.StringIO(example.ok("code", "stats", "--agreement", "mp", "ak", "--csv").out)))
    assert len(rows) == 3 * (len(report["codes"]) + 1)
    for row in rows:
        want = report["overall"] if row["scope"] == "overall" else next(r for r in report["codes"] if r["code"] == row["code"])
        t = want["by_" + row["unit"]]
        if row["unit"] == "segment":
            assert (int(row["units"]), int(row["both"])) == (t["units"], t["a_agreed"] + t["b_agreed"])
            continue
        assert int(row["units"]) == t["units"] and int(row["both"]) == t["both"]
        assert (row["kappa"] == "") == (t["kappa"] is None)
        if t["kappa"] is not None:
            assert abs(float(row["kappa"]) - t["kappa"]) < 1e-12 and abs(float(row["alpha"]) - t["alpha"]) < 1e-12


def generated_diary(diary, seed):
    """Entries of distinct words (so every quote is found once), coded at random by ann, bob and
    by hand without a coder (ann's: daybook.yml's coder); some entries only one of them coded."""
    rng = random.Random(seed)
    diary.init()
    with open(diary.path / "daybook.yml", "a") as f:
        f.write("coder: ann\n")
    word = 0
    for i in range(14):
        words = [f"w{word + k}" for k in range(rng.randint(4, 30))]
        word += len(words)
        body = " ".join(words) + ".\n"
        lines = []
        for who in ("ann", "bob", "carol", None):
            if rng.random() < 0.2:
                continue
            for _ in range(rng.randint(0, 4)):
                code = rng.choice(["x", "y", "z"])
                if rng.random() < 0.15:
                    lines.append(f"  - code: {code}")
                else:
                    s = rng.randrange(len(words))
                    e = rng.randint(s + 1, min(len(words), s + 8))
                    lines.append(f"  - code: {code}\n    quote: \"{' '.join(words[s:e])}\"")
                if who:
                    lines.append(f"    coder: {who}")
        codes = ("codes:\n" + "\n".join(lines) + "\n") if lines else ""
        day = f"2026-10-{i + 1:02d}"
        folder = diary.path / "entries" / "2026" / "10"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{day}-1200-e{i}.md").write_text(
            f"---\ntitle: E{i}\ndate: {day}T12:00:00+01:00\n{codes}---\n{body}")
    diary.ok("init", diary.path)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_figure_matches_scikit_learn_and_krippendorff_on_generated_data(diary, seed):
    generated_diary(diary, seed)
    out = diary.tmp / "g.qdpx"
    diary.ok("export", "qdpx", "-o", out)
    _, sources = qdpx_codings(out)
    check_against(diary.ok("code", "stats", "--agreement", "ann", "bob", "--json").json(), reference(sources, "ann", "bob"))
    both = diary.ok("code", "stats", "--agreement", "ann", "bob", "--coded-by", "coding", "--json").json()
    check_against(both, reference(sources, "ann", "bob", only_both_coded=True))
    # Alpha with missing values: an entry one coder did not code is nan for that coder, and the
    # krippendorff package's figure over every entry is daybook's.
    for row in both["codes"]:
        data = [[], []]
        for n, sels in sources:
            for k, who in enumerate(("ann", "bob")):
                if not any(w == who for (_, w, _, _) in sels):
                    data[k].append(np.nan)
                else:
                    data[k].append(1 if any(c == row["code"] and w == who for (c, w, _, _) in sels) else 0)
        vals = {v for r in data for v in r if not np.isnan(v)}
        want = None if len(vals) < 2 else float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
        assert close(row["alpha"], want), (row["code"], row["alpha"], want)


def test_disagreements_by_entry(diary):
    coded_diary(diary)
    r = diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--unit", "entry", "--json").json()
    assert r["unit"] == "entry"
    assert [(d["id"][:10], d["code"], d["coder"]) for d in r["disagreements"]] == [("2026-11-03", "frustration", "bob")]
    assert "only bob  (the entry)" in diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--unit", "entry").out
    rows = list(csv.DictReader(io.StringIO(diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--csv").out)))
    assert [(r["coder"], r["text"]) for r in rows] == [("ann", "The login "), ("bob", " and again"), ("bob", "Quiet shift.\n")]
    # With --coded-by coding, the day ann never coded is not a disagreement.
    assert diary.run("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--unit", "entry", "--coded-by", "coding").rc == 1


@pytest.mark.parametrize("seed", [4, 5])
def test_three_coders_alpha_with_missing_values_matches_krippendorff(diary, seed):
    """More than two coders: alpha by entry and per character, an entry a coder made no coding in
    being missing for them, against the krippendorff package on the export's codings."""
    generated_diary(diary, seed)
    out = diary.tmp / "g.qdpx"
    diary.ok("export", "qdpx", "-o", out)
    _, sources = qdpx_codings(out)
    coders = ("ann", "bob", "carol")
    report = diary.ok("code", "stats", "--agreement", *coders, "--coded-by", "coding", "--json").json()
    assert report["coders"] == list(coders)
    pooled = {"entry": [[], [], []], "character": [[], [], []]}
    for row in report["codes"]:
        ent, chars = [[], [], []], [[], [], []]
        for n, sels in sources:
            looked = [any(w == who for (_, w, _, _) in sels) for who in coders]
            if sum(looked) < 2:
                continue
            for k, who in enumerate(coders):
                mine = [(s, e) for (c, w, s, e) in sels if c == row["code"] and w == who]
                cover = [0] * n
                for s, e in mine:
                    for i in range(s, e):
                        cover[i] = 1
                ent[k].append((1 if mine else 0) if looked[k] else np.nan)
                chars[k].extend(cover if looked[k] else [np.nan] * n)
        for unit, data in (("entry", ent), ("character", chars)):
            vals = {v for r in data for v in r if not np.isnan(v)}
            want = None if len(vals) < 2 else float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
            assert close(row["by_" + unit]["alpha"], want), (row["code"], unit, row["by_" + unit]["alpha"], want)
            for k in range(3):
                pooled[unit][k].extend(data[k])
    for unit, data in pooled.items():
        want = float(krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
        assert close(report["overall"]["by_" + unit]["alpha"], want), unit
    table = diary.ok("code", "stats", "--agreement", *coders).out.splitlines()
    assert table[0].startswith("Agreement of ann, bob and carol by entry") and "alpha" in table[1]
    assert diary.run("code", "stats", "--agreement", *coders, "--disagreements").rc == 2
    assert diary.run("code", "stats", "--agreement", "ann").rc == 2


def test_segment_overlap_with_a_threshold(diary):
    """MAXQDA's segment level: a coding agrees when the other coder coded the code over at least
    --min-overlap (90 %) of it. ann's "The login failed again" (22) shares "failed again" (12)
    with bob's "failed again and again" (22): 12/22 of each, under 90 % but over 50 %."""
    coded_diary(diary)
    seg = diary.ok("code", "stats", "--agreement", "ann", "bob", "--json").json()["codes"][0]["by_segment"]
    assert (seg["a"], seg["b"], seg["a_agreed"], seg["b_agreed"]) == (1, 2, 0, 0)
    half = diary.ok("code", "stats", "--agreement", "ann", "bob", "--json", "--min-overlap", "0.5").json()
    seg = half["codes"][0]["by_segment"]
    assert (seg["a_agreed"], seg["b_agreed"], seg["agreement"]) == (1, 1, 2 / 3)
    # One code: chance agreement 1/k is 1, so kappa is undefined.
    assert half["overall"]["by_segment"]["codes"] == 1 and half["overall"]["by_segment"]["kappa"] is None
    table = diary.ok("code", "stats", "--agreement", "ann", "bob", "--unit", "segment", "--min-overlap", "0.5").out.splitlines()
    assert table[0].startswith("Agreement of ann and bob by segment:") and "at least 50 % of it" in table[0]
    assert table[2].split() == ["frustration", "66.7", "%", "1/1", "1/2"]
    rows = [r for r in csv.DictReader(io.StringIO(diary.ok("code", "stats", "--agreement", "ann", "bob", "--csv").out)) if r["unit"] == "segment"]
    assert [(r["scope"], r["units"], r["both"]) for r in rows] == [("code", "3", "0"), ("overall", "3", "0")]
    d = diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--unit", "segment", "--json").json()["disagreements"]
    assert [(x["coder"], x["text"]) for x in d] == [("ann", "The login failed again"), ("bob", "failed again and again"), ("bob", "Quiet shift.\n")]
    assert "unmatched ann" in diary.ok("code", "stats", "--agreement", "ann", "bob", "--disagreements", "--unit", "segment").out
    assert diary.run("code", "stats", "--agreement", "ann", "bob", "--min-overlap", "1.5").rc == 2
    assert diary.run("code", "stats", "--agreement", "ann", "bob", "--min-overlap", "0.5").rc == 2


def test_code_stats_and_ls_count_a_coding_without_coder_as_the_default_coders(example):
    """The rule of the agreement, in the other reports: the example's `- trust` is mp's."""
    uses = {c["code"]: c for c in example.ok("code", "stats", "--json").json()["codes"]}
    assert uses["trust"]["coder_names"] == ["mp"]
    mine = example.ok("code", "ls", "trust", "--coder", "mp", "--json").json()
    assert [(c["entry"][:10], c["coder"]) for c in mine] == [("2026-11-12", None)]  # the coding as written
    assert example.run("code", "ls", "trust", "--coder", "ak").rc == 1


def test_the_csv_export_names_the_default_coder_as_the_qdpx_export_does(diary):
    """Without `coder` in daybook.yml, git's user.name is the default coder, in both exports."""
    coded_diary(diary)
    path = diary.entries()[0]
    path.write_text(path.read_text().replace("codes:\n", "codes:\n  - code: trust\n"))
    who = diary.git("config", "user.name").strip()
    assert who
    rows = list(csv.DictReader(io.StringIO(diary.ok("export", "csv", "--codings").out)))
    assert [r["coder"] for r in rows if r["code"] == "trust"] == [who]
    out = diary.tmp / "d.qdpx"
    diary.ok("export", "qdpx", "-o", out)
    coders, sources = qdpx_codings(out)
    assert [w for _, sels in sources for (c, w, _, _) in sels if c == "trust"] == [who]
    assert diary.ok("code", "stats", "--agreement", who, "ann", "--json").json()["codes"][-1]["code"] == "trust"
    # And the HTML export names the same coder beside the coding.
    site = diary.tmp / "site"
    diary.ok("export", "html", "-o", site)
    pages = "".join(p.read_text() for p in site.rglob("*.html"))
    assert f"by {who}</span>" in pages

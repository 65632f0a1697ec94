"""Links between entries (issue 18): `[[ID]]`, `[[ID|label]]`, relative links to entries and attachments.

Every face on the built binary: `daybook links` (and --backlinks, --json), `check`, `show` in the
terminal and as HTML, `export html` (every href of every page leads to a file of the site or out to
the web; "Linked from"), and `daybook serve`'s entry page. Bad input: a link to nothing, an
ambiguous prefix, an unclosed `[[`, links in code, links that climb out of the diary.
"""
import html.parser
import re
import urllib.parse

import pytest

from serving import Served

LOGIN = "2026-11-02-2230-login-trouble"
MEMO = "2026-11-03-0800-morning-memo"
MEMO2 = "2026-11-03-0815-memo-addendum"
LINKS = "2026-11-05-0900-links"

BODY = """See [[2026-11-02-2230-login-trouble|the login]] and [[2026-11-02]], then [[2026-11-03-08]] and [[nothing-here]].

Code is no link: `[[2026-11-02]]`, and neither is \\[[2026-11-02]] nor [[unclosed.

```
[[2026-11-03-0800]]
```

| note | link |
|---|---|
| memo | [[2026-11-03-0800\\|the memo]] |

The [file](2026-11-02-2230-login-trouble.md), its [photo](2026-11-02-2230-login-trouble/board.png),
a [lost one](2026-11-02-2230-login-trouble/gone.png), an [old entry](../10/2026-10-01-0800-gone.md),
[out](../../etc/passwd), [far out](../../../../../../etc/passwd), [the web](https://example.org/x.md).
"""


@pytest.fixture
def linked(diary):
    diary.ok("new", "Login trouble", "--date", "2026-11-02 22:30", "-m", "The login failed.")
    diary.ok("new", "Morning memo", "--date", "2026-11-03 08:00", "-m", "Plan the day. Back to [[2026-11-02-2230]].")
    diary.ok("new", "Memo addendum", "--date", "2026-11-03 08:15", "-m", "One more thing.")
    photo = diary.tmp / "board.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n")
    diary.ok("attach", LOGIN, photo)
    diary.ok("new", "Links", "--date", "2026-11-05 09:00", "-t", "fieldwork", "-m", BODY)
    return diary


def entry_file(diary, id):
    (path,) = [p for p in diary.entries() if p.stem == id]
    return path


def place(diary, id, needle, nth=0):
    """The 1-based line and column of the nth `needle` in the entry's file."""
    lines = entry_file(diary, id).read_text().split("\n")
    found = [(n + 1, line.index(needle) + 1) for n, line in enumerate(lines) if needle in line]
    return found[nth]


def test_links_lists_each_link_where_it_stands_and_where_it_leads(linked):
    r = linked.run("links", LINKS, "--json")
    assert r.rc == 1, r  # some lead nowhere
    links = r.json()
    by_written = {(l["form"], l["written"]): l for l in links}
    login = by_written[("wiki", LOGIN)]
    assert login["label"] == "the login" and login["target"]["kind"] == "entry" and login["target"]["id"] == LOGIN
    assert login["target"]["title"] == "Login trouble"
    assert (login["line"], login["column"]) == place(linked, LINKS, "[[2026-11-02-2230-login-trouble|")
    assert login["end_column"] - login["column"] == len(f"[[{LOGIN}|the login]]")
    assert by_written[("wiki", "2026-11-02")]["target"]["id"] == LOGIN  # a unique prefix
    ambiguous = by_written[("wiki", "2026-11-03-08")]["target"]
    assert ambiguous["kind"] == "ambiguous" and ambiguous["candidates"] == [MEMO, MEMO2]
    assert by_written[("wiki", "nothing-here")]["target"]["kind"] == "nothing"
    table = by_written[("wiki", "2026-11-03-0800")]
    assert table["label"] == "the memo" and table["target"]["id"] == MEMO
    assert (table["line"], table["column"]) == place(linked, LINKS, "[[2026-11-03-0800\\|")
    assert by_written[("link", "2026-11-02-2230-login-trouble.md")]["target"]["id"] == LOGIN
    assert by_written[("link", "2026-11-02-2230-login-trouble/board.png")]["target"] == {
        "kind": "attachment", "path": f"entries/2026/11/{LOGIN}/board.png"}
    assert by_written[("link", "2026-11-02-2230-login-trouble/gone.png")]["target"]["kind"] == "nothing"
    assert by_written[("link", "../10/2026-10-01-0800-gone.md")]["target"]["kind"] == "nothing"
    assert by_written[("link", "../../etc/passwd")]["target"]["kind"] == "outside"
    assert by_written[("link", "../../../../../../etc/passwd")]["target"]["kind"] == "outside"
    # Not links: code spans and blocks, an escaped bracket, an unclosed [[, a web address.
    wiki = [l["written"] for l in links if l["form"] == "wiki"]
    assert wiki == [LOGIN, "2026-11-02", "2026-11-03-08", "nothing-here", "2026-11-03-0800"], wiki
    assert not any(l["written"].startswith("https:") for l in links)

    text = linked.run("links", LINKS)
    assert text.rc == 1
    line, col = place(linked, LINKS, "[[2026-11-02-2230-login-trouble|")
    assert f"{line}:{col}  {LOGIN}  Login trouble" in text.out.splitlines()
    assert f"{LOGIN}/board.png  (attachment)" in text.out
    assert "nothing-here" not in text.out and "[[nothing-here]] leads to nothing" in text.err
    assert "[[2026-11-03-08]] names 2 entries" in text.err


def test_an_entry_whose_links_all_lead_somewhere_exits_0_and_backlinks_name_the_linking_entries(linked):
    r = linked.run("links", MEMO)
    assert r.rc == 0, r
    line, col = place(linked, MEMO, "[[2026-11-02-2230]]")
    assert r.out == f"{line}:{col}  {LOGIN}  Login trouble\n"
    back = linked.run("links", LOGIN, "--backlinks")
    assert back.rc == 0, back
    froms = [l.split(":")[0] for l in back.out.splitlines()]
    assert froms == [MEMO] + [LINKS] * 3, back.out  # [[…|the login]], [[2026-11-02]], [file](…)
    back_json = linked.ok("links", LOGIN, "--backlinks", "--json").json()
    assert [b["from"]["id"] for b in back_json] == froms and back_json[0]["from"]["title"] == "Morning memo"
    assert linked.ok("links", MEMO2, "--backlinks").out == ""  # only named by an ambiguous prefix
    assert linked.run("links", "2026-11-03").rc == 2  # ENTRY itself ambiguous: two entries that day
    assert linked.run("links", "no-such-entry").rc == 2


def test_check_warns_of_each_link_to_nothing_at_its_line_and_column(linked):
    r = linked.run("check")
    assert r.rc == 1, r
    path = entry_file(linked, LINKS).relative_to(linked.path.parent)
    warnings = [l for l in r.out.splitlines() if "link" in l]
    line, col = place(linked, LINKS, "[[nothing-here]]")
    assert f"{path}:{line}:{col}: warning: link [[nothing-here]] leads to nothing" in r.out, r.out
    line, col = place(linked, LINKS, "[[2026-11-03-08]]")
    assert f"{path}:{line}:{col}: warning: link [[2026-11-03-08]] names 2 entries ({MEMO}, {MEMO2})" in r.out
    line, col = place(linked, LINKS, "[lost one]")
    assert f"{path}:{line}:{col}: warning: link `2026-11-02-2230-login-trouble/gone.png` leads to nothing: there is no attachment" in r.out
    assert "link `../10/2026-10-01-0800-gone.md` leads to nothing: there is no entry file entries/2026/10/2026-10-01-0800-gone.md" in r.out
    assert sum("leads out of the diary's entries" in l for l in warnings) == 2
    assert len(warnings) == 6, warnings
    assert all(": warning: " in l for l in warnings)
    as_json = [p for p in linked.run("check", "--json").jsonl() if "link" in p["message"]]
    assert len(as_json) == 6 and all(p["severity"] == "warning" and p["line"] > 0 and p["column"] > 0 for p in as_json)
    nothing = next(p for p in as_json if "[[nothing-here]]" in p["message"])
    assert (nothing["end_line"], nothing["end_column"] - nothing["column"]) == (nothing["line"], len("[[nothing-here]]"))


def test_show_resolves_links_for_a_reader(linked):
    out = linked.ok("show", LINKS).out
    assert f"the login (→ Login trouble, {LOGIN})" in out
    assert f"Login trouble (→ {LOGIN})" in out  # [[2026-11-02]]: the title, then the id
    assert "[[2026-11-03-08]] (→ 2 entries)" in out and "[[nothing-here]] (→ nothing)" in out
    assert "`[[2026-11-02]]`" in out  # code stays as written
    assert "[far out](../../../../../../etc/passwd) (→ outside the entries, not followed)" in out
    page = linked.ok("show", LINKS, "--html").out
    target = entry_file(linked, LOGIN).resolve()
    assert f'<a href="{target}">the login</a>' in page
    assert "root:" not in page  # /etc/passwd is never read


class Hrefs(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs, self.ids = [], set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        for key in ("href", "src"):
            if a.get(key):
                self.hrefs.append(a[key])


def parse(text):
    p = Hrefs()
    p.feed(text)
    return p


def test_every_href_of_the_exported_site_leads_to_a_file_of_the_site_or_the_web(linked):
    out = linked.tmp / "site"
    linked.ok("export", "html", "-o", out)
    pages = sorted(out.rglob("*.html"))
    assert len(pages) >= 6  # four entries, a tag, the index
    checked = 0
    for page in pages:
        for href in parse(page.read_text()).hrefs:
            parts = urllib.parse.urlsplit(href)
            if parts.scheme in ("http", "https", "mailto", "data"):
                continue
            assert not parts.scheme and not href.startswith("/"), f"{page}: {href}"
            if not parts.path:
                continue  # an anchor in the page itself
            target = (page.parent / urllib.parse.unquote(parts.path)).resolve()
            assert target.is_relative_to(out.resolve()) and target.is_file(), f"{page.relative_to(out)}: {href}"
            checked += 1
    assert checked > 20
    links_page = (out / "entries/2026/11" / f"{LINKS}.html").read_text()
    assert f'<a href="../../../entries/2026/11/{LOGIN}.html">the login</a>' in links_page
    assert f'<a href="../../../entries/2026/11/{LOGIN}.html">Login trouble</a>' in links_page  # [[prefix]]: its title
    assert '<span class="broken-link">far out</span>' in links_page and "[[nothing-here]]" in links_page
    assert "<code>[[2026-11-02]]</code>" in links_page
    login_page = (out / "entries/2026/11" / f"{LOGIN}.html").read_text()
    linked_from = re.search(r'<section class="backlinks"><h2>Linked from</h2><ul>(.*?)</ul>', login_page).group(1)
    assert re.findall(r'>([^<]+)</a>', linked_from) == ["Morning memo", "Links"]
    assert "Linked from" not in (out / "entries/2026/11" / f"{MEMO2}.html").read_text()
    assert not list(out.rglob("passwd")) and not (out / "etc").exists()

    single = linked.tmp / "one.html"
    linked.ok("export", "html", "--single-file", "-o", single)
    page = parse(single.read_text())
    for href in page.hrefs:
        if href.startswith("#"):
            assert href[1:] in page.ids, href
    assert f"#entry-{LOGIN}" in page.hrefs


def test_an_export_of_some_entries_does_not_link_to_pages_it_lacks(linked):
    out = linked.tmp / "part"
    linked.ok("export", "html", "-o", out, "--from", "2026-11-04")
    page = (out / "entries/2026/11" / f"{LINKS}.html").read_text()
    assert f"{LOGIN}.html" not in page and not (out / "entries/2026/11" / f"{LOGIN}.html").exists()
    assert "the login" in page  # the text stays


def test_the_web_app_links_entries_to_their_pages(linked):
    served = Served(linked)
    try:
        status, _, body = served.request("GET", f"/entries/{LINKS}")
        assert status == 200
        page = body.decode()
        assert f'<a href="/entries/{LOGIN}">the login</a>' in page
        assert f'<a href="/entries/{LOGIN}/board.png">photo</a>' in page
        assert '<span class="broken-link">out</span>' in page
        assert served.request("GET", f"/entries/{LOGIN}")[0] == 200
    finally:
        served.stop()

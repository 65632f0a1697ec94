"""Any field as a table or a count (issue 18, "Any field, as a table or a count"): `ls --columns`
with `--csv` and `--json`, `daybook fields`, `stats --field` on a field that is not a number,
`--where` into a mapping, and `new --location`."""
import csv
import io


def write_some(diary):
    diary.init()
    diary.ok("new", "Ward round", "-m", "Quiet night.", "--mood", "3", "--date", "2026-11-02 08:00",
             "--set", "feeling=sadness", "--set", "location={name: Ward 3, lat: 48.2, lon: 16.3}",
             "--set", "sites=[ward, lab]", "--set", "minutes=30")
    diary.ok("new", "Lab 日本", "-m", "Pipettes.", "--date", "2026-11-03 09:00",
             "--set", "feeling=anger", "--set", "sites=[lab]", "--set", "minutes=45")
    diary.ok("new", "Train", "-m", "Home.", "--date", "2026-12-01 18:00", "--set", "feeling=sadness",
             "--set", "minutes=thirty")


def test_columns_as_a_table_csv_and_json(diary):
    write_some(diary)
    r = diary.ok("ls", "--columns", "day,title,mood,feeling,location.name,sites.1,words")
    lines = r.out.splitlines()
    assert lines[0].split() == ["day", "title", "mood", "feeling", "location.name", "sites.1", "words"]
    assert len(lines) == 4
    # Aligned: every row's feeling starts in the header's column (the wide characters count two).
    col = lines[0].index("feeling")
    assert lines[1][col:].startswith("sadness") and lines[3][col:].startswith("sadness")
    assert lines[2].replace("Lab 日本", "Lab 日本__")[col:].startswith("anger"), lines
    assert "Ward 3" in lines[1] and "lab" in lines[1]
    # Numbers line up on the right: the mood column ends where its header ends.
    end = lines[0].index("mood") + len("mood")
    assert lines[1][end - 1] == "3"

    rows = list(csv.DictReader(io.StringIO(diary.ok("ls", "--columns", "title,location,sites,codes", "--csv").out)))
    assert rows[0]["title"] == "Ward round" and rows[0]["sites"] == "ward;lab"
    assert rows[0]["location"] == '{"name":"Ward 3","lat":48.2,"lon":16.3}'
    assert rows[1]["location"] == "" and rows[1]["title"] == "Lab 日本"

    data = diary.ok("ls", "--columns", "title,location.lat,minutes,nothing", "--json").json()
    assert data[0] == {"title": "Ward round", "location.lat": 48.2, "minutes": 30, "nothing": None}
    assert data[2]["minutes"] == "thirty"

    default = list(csv.reader(io.StringIO(diary.ok("ls", "--csv").out)))
    assert default[0] == ["id", "date", "title", "tags", "mood"] and len(default) == 4


def test_bad_columns_are_refused(diary):
    write_some(diary)
    for bad in (["--columns", ""], ["--columns", "title,,mood"], ["--columns", "title", "--paths"], ["--csv", "--json"]):
        r = diary.run("ls", *bad)
        assert r.rc == 2, (bad, r)
        assert "--" in r.err


def test_fields_lists_every_key_its_types_and_entries(diary):
    write_some(diary)
    out = diary.ok("fields").out.splitlines()
    rows = {line.split()[0]: line for line in out[1:]}
    assert out[0].split() == ["key", "entries", "types"]
    assert rows["feeling"].split()[1] == "3" and "text 3" in rows["feeling"]
    assert "number 2" in rows["minutes"] and "text 1" in rows["minutes"]   # typed by hand once
    assert "mapping 1" in rows["location"] and "text 1" in rows["location.name"] and "number 1" in rows["location.lat"]
    assert "list 2" in rows["sites"]
    data = {k["key"]: k for k in diary.ok("fields", "--json").json()}
    assert data["date"]["entries"] == 3 and data["date"]["types"] == {"date": 3}
    assert data["minutes"]["types"] == {"text": 1, "number": 2}
    assert diary.run("fields", "--tag", "nothing-has-this").rc == 1


def test_stats_counts_a_field_that_is_not_a_number(diary):
    write_some(diary)
    r = diary.ok("stats", "--field", "feeling")
    [line] = [l for l in r.out.splitlines() if l.startswith("feeling")]
    assert "sadness 2, anger 1 (3 entries)" in line
    field = diary.ok("stats", "--field", "feeling", "--json").json()["field"]
    assert field["numeric"] is False and field["entries"] == 3
    assert field["counts"] == [{"value": "sadness", "entries": 2}, {"value": "anger", "entries": 1}]
    # A list counts each item once per entry (a multi field's options).
    sites = diary.ok("stats", "--field", "sites", "--json").json()["field"]["counts"]
    assert sites == [{"value": "lab", "entries": 2}, {"value": "ward", "entries": 1}]
    # Per month, a column per value.
    table = diary.ok("stats", "--field", "feeling", "--by", "month", "--csv").out.splitlines()
    assert table[0] == "period,start,entries,words,mood,feeling=sadness,feeling=anger"
    assert table[1].endswith(",1,1") and table[2].endswith(",1,0")
    summary = diary.ok("stats", "--field", "feeling", "--csv").out
    assert "feeling=sadness,2" in summary
    # A field of numbers is still averaged; one that is text somewhere is counted.
    numeric = diary.ok("stats", "--field", "mood", "--json").json()["field"]
    assert numeric["numeric"] is True and numeric["average"] == 3
    assert diary.ok("stats", "--field", "minutes", "--json").json()["field"]["numeric"] is False
    assert diary.ok("stats", "--field", "location.name", "--json").json()["field"]["counts"] == [{"value": "Ward 3", "entries": 1}]


def test_where_reaches_into_a_mapping(diary):
    write_some(diary)
    r = diary.ok("ls", "--where", "location.name=Ward 3", "--columns", "title")
    assert r.out.splitlines()[1:] == ["Ward round"]
    assert diary.run("ls", "--where", "location.name=Ward 9").rc == 1


def test_location_shortcut(diary):
    diary.init()
    diary.ok("new", "Here", "-m", "x", "--location", "St. Anna ward 3@48.2,16.4")
    diary.ok("new", "There", "-m", "x", "--location", "Café @ Main")
    got = diary.ok("ls", "--columns", "title,location", "--json").json()
    assert got[0]["location"] == {"name": "St. Anna ward 3", "lat": 48.2, "lon": 16.4}
    assert got[1]["location"] == {"name": "Café @ Main"}
    for bad, why in (("Ward@48.2", "latitude and a longitude"), ("Ward@91,0", "-90 to 90"), ("@1,2", "needs a name")):
        r = diary.run("new", "Bad", "-m", "x", "--location", bad)
        assert r.rc == 2 and why in r.err, r
    assert len(diary.entries()) == 2

"""Reliability of coding (issue 17, "Reliability of coding"): Krippendorff's alpha beside Cohen's
kappa, how much of the text both coders coded, and the text only one of them coded."""


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
    assert "alpha" in table[0] and "text both" in table[0]
    assert table[1].split()[:4] == ["frustration", "50.0", "%", "0.000"]


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

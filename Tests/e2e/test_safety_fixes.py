"""Data safety and security fixes of issue 20, each reproduced as a user would meet it."""
import os
import pathlib
import subprocess

import pytest

READING = [["ls"], ["check"], ["stats"], ["grep", "x"], ["export", "json"], ["export", "markdown"],
           ["show", "last"], ["tag", "ls"]]


@pytest.mark.parametrize("body", ["> " * 12000 + "x #deep", "- " * 5000 + "x #deep"],
                         ids=["quotes", "lists"])
def test_deeply_nested_markdown_is_read(diary, body):
    diary.ok("new", "Deep", input=body + "\n")
    for args in READING:
        r = diary.run(*args)
        assert r.rc in (0, 1) and "Segmentation" not in r.err and "crashed" not in r.err, (args, r)
    assert "deep" in diary.ok("tag", "ls").out
    out = diary.tmp / "site"
    diary.ok("export", "html", "-o", out)
    assert (out / "index.html").exists()

"""Voice notes (issue 43): audio that espeak-ng speaks, attached with its duration, and a transcriber
that the test provides (any program that prints the text of the audio file it is given)."""
import shutil
import subprocess
import wave

import pytest

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (scripts/setup installs it)")

# A transcriber as daybook.yml's transcribe: names one: it gets the file as its last argument and
# prints the text. This one checks that it was given a real WAV file and says what it heard.
TRANSCRIBER = """#!/bin/sh
f="$1"
[ "$(head -c 4 "$f")" = RIFF ] || { echo "not a WAV file: $f" >&2; exit 1; }
echo "Met the nurse at noon."
echo "She said the tablet is slow."
"""


def spoken(tmp_path, text, name="note.wav"):
    f = tmp_path / name
    subprocess.run(["espeak-ng", "-w", str(f), text], check=True, capture_output=True)
    with wave.open(str(f)) as w:
        seconds = w.getnframes() / w.getframerate()
    return f, "%d:%02d" % (round(seconds) // 60, round(seconds) % 60)


def with_transcriber(diary, tmp_path, script=TRANSCRIBER):
    t = tmp_path / "transcribe"
    t.write_text(script)
    t.chmod(0o755)
    with open(diary.path / "daybook.yml", "a") as f:
        f.write(f"transcribe: {t}\n")


@needs_espeak
def test_new_audio_is_attached_with_its_duration_and_transcript_in_one_commit(diary, tmp_path):
    audio, length = spoken(tmp_path, "Met the nurse at noon. She said the tablet is slow.")
    with_transcriber(diary, tmp_path)
    before = diary.commits()
    r = diary.ok("new", "--audio", audio, "--date", "yesterday 5pm")
    entry = diary.path.parent / r.out.strip()
    text = entry.read_text()
    assert "title: Voice note" in text and "date: 2026-11-20T17:00:00+01:00" in text
    assert f"[note.wav]({entry.stem}/note.wav) · audio {length}\n" in text, text
    assert "> *Transcript of note.wav:*\n> Met the nurse at noon.\n> She said the tablet is slow.\n" in text, text
    assert (entry.parent / entry.stem / "note.wav").read_bytes() == audio.read_bytes()
    # One commit for the entry, the file and the transcript (the daybook.yml edit is committed apart first).
    assert diary.commits() == before + 2
    files = diary.git("show", "--name-only", "--format=", "HEAD").split()
    assert sorted(files) == sorted([str(entry.relative_to(diary.path)), str(entry.relative_to(diary.path))[:-3] + "/note.wav"])
    assert diary.ok("grep", "tablet").out


@needs_espeak
def test_attach_audio_and_transcribe_later(diary, tmp_path):
    audio, length = spoken(tmp_path, "A second thought on the bus.", "bus.wav")
    out = diary.ok("new", "Bus", "-m", "Written first.").out.strip()
    entry = diary.path.parent / out
    # No transcribe: command yet: the file and its duration only.
    diary.ok("attach", "last", audio)
    text = entry.read_text()
    assert text.endswith(f"Written first.\n\n[bus.wav]({entry.stem}/bus.wav) · audio {length}\n"), text
    r = diary.run("transcribe", "last")
    assert r.rc == 2 and "transcribe:" in r.err, r
    with_transcriber(diary, tmp_path)
    diary.ok("transcribe", "last")
    text = entry.read_text()
    assert text.endswith(f"[bus.wav]({entry.stem}/bus.wav) · audio {length}\n\n> *Transcript of bus.wav:*\n"
                         "> Met the nurse at noon.\n> She said the tablet is slow.\n"), text
    assert diary.git("log", "-1", "--format=%s").strip() == "transcribe: bus.wav of Bus"
    # Each file is transcribed once.
    r = diary.run("transcribe", "last")
    assert r.rc == 1 and "nothing to transcribe" in r.err


@needs_espeak
def test_a_transcriber_that_fails_writes_nothing(diary, tmp_path):
    audio, _ = spoken(tmp_path, "Lost words.")
    with_transcriber(diary, tmp_path, "#!/bin/sh\necho 'model file not found' >&2\nexit 3\n")
    before = diary.commits()
    r = diary.run("new", "--audio", audio)
    assert r.rc == 2 and "model file not found" in r.err and "note.wav" in r.err, r
    assert diary.entries() == []
    assert diary.commits() <= before + 1  # at most the outside edit of daybook.yml


def test_a_file_that_is_not_audio_is_attached_as_before(diary, tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("x")
    diary.ok("new", "N", "-m", "body")
    diary.ok("attach", "last", f)
    assert diary.entries()[0].read_text().endswith("body\n\n[notes.txt](%s/notes.txt)\n" % diary.entries()[0].stem)

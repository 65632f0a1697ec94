"""Who may write to an encrypted remote (issue 37): each attack of the issue replayed against the
real binary and a bare remote served by `git daemon` on 127.0.0.1. Manifests and packs are forged
with Python's `cryptography` package, from the format daybook-sync(1) describes (MANIFEST FORMAT),
not from daybook's code."""
import base64
import hashlib
import json
import os
import shutil
import subprocess

import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from test_encrypted_sync import fingerprint, keyed, machine, served, state, titles  # noqa: F401 (fixture)


def b64d(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def b64e(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def raw(public):
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


class Keys:
    """A device key as daybook-key(1) describes it: an X25519 pair and an Ed25519 pair."""

    def __init__(self, x=None, ed=None):
        self.x = x or X25519PrivateKey.generate()
        self.ed = ed or Ed25519PrivateKey.generate()

    @classmethod
    def of(cls, d):
        """The key a machine keeps in its key file (a removed recipient still has its own)."""
        lines = (d.home / "config" / "daybook" / "key").read_text().split("\n")
        x = X25519PrivateKey.from_private_bytes(b64d(lines[0].split()[1]))
        ed = Ed25519PrivateKey.from_private_bytes(b64d(lines[1].split()[1]))
        return cls(x, ed)

    @property
    def pub(self):
        return "daybook2" + b64e(raw(self.x.public_key()) + raw(self.ed.public_key()))


MAGIC = b"daybook-manifest 2\n"


def seal_manifest(content, recipients, signer, claimed_signer=None):
    """The sealed manifest: magic, count, a stanza per recipient, then the body (signer's Ed25519
    key, signature, JSON) sealed under the manifest key with the header as associated data."""
    key = os.urandom(32)
    header = MAGIC + bytes([len(recipients)])
    for r in recipients:
        rraw = b64d(r[8:])[:32]
        eph = X25519PrivateKey.generate()
        eph_pub = raw(eph.public_key())
        wrap = HKDF(hashes.SHA256(), 32, salt=eph_pub + rraw, info=b"daybook manifest key 1").derive(
            eph.exchange(X25519PublicKey.from_public_bytes(rraw)))
        nonce = os.urandom(12)
        header += eph_pub + nonce + ChaCha20Poly1305(wrap).encrypt(nonce, key, None)
    body_json = json.dumps(content, sort_keys=True).encode()
    signature = signer.sign(b"daybook manifest signature 2\n" + header + body_json)
    body = (claimed_signer or raw(signer.public_key())) + signature + body_json
    nonce = os.urandom(12)
    return header + nonce + ChaCha20Poly1305(key).encrypt(nonce, body, header)


def open_manifest(sealed, keys):
    """Opens a manifest with a recipient's X25519 key: (signer, content)."""
    count = sealed[len(MAGIC)]
    at = len(MAGIC) + 1
    for i in range(count):
        s = sealed[at + i * 92: at + (i + 1) * 92]
        eph = s[:32]
        me = raw(keys.x.public_key())
        wrap = HKDF(hashes.SHA256(), 32, salt=eph + me, info=b"daybook manifest key 1").derive(
            keys.x.exchange(X25519PublicKey.from_public_bytes(eph)))
        try:
            key = ChaCha20Poly1305(wrap).decrypt(s[32:44], s[44:], None)
        except Exception:
            continue
        body_at = at + count * 92
        body = ChaCha20Poly1305(key).decrypt(sealed[body_at:body_at + 12], sealed[body_at + 12:], sealed[:body_at])
        return body[:32], json.loads(body[96:])
    raise AssertionError("not a recipient")


def seal_pack(pack):
    key, name = os.urandom(32), os.urandom(16).hex()
    magic = b"daybook-pack 1\n"
    nonce = os.urandom(12)
    sealed = magic + nonce + ChaCha20Poly1305(key).encrypt(nonce, pack, magic + name.encode())
    return name, sealed, {"name": name, "key": base64.b64encode(key).decode(), "objects": 1}


def bare_git(bare, *args, input=None):
    return subprocess.run(["git", *args], cwd=bare, input=input, capture_output=True, check=True).stdout


def remote_manifest(bare):
    return bare_git(bare, "cat-file", "blob", "main:manifest")


def push_forged(bare, sealed_manifest, packs):
    """Puts a forged push on the remote's branch, as anyone who can push could: the old packs kept,
    the new ones added, the manifest replaced, one commit on top."""
    entries = [line.split("\t") for line in bare_git(bare, "ls-tree", "main:packs").decode().splitlines()]
    listing = "".join(f"{meta}\t{name}\n" for meta, name in entries)
    for name, data in packs:
        listing += f"100644 blob {bare_git(bare, 'hash-object', '-w', '--stdin', input=data).decode().strip()}\t{name}\n"
    packs_tree = bare_git(bare, "mktree", input=listing.encode()).decode().strip()
    manifest = bare_git(bare, "hash-object", "-w", "--stdin", input=sealed_manifest).decode().strip()
    root = bare_git(bare, "mktree", input=f"100644 blob {manifest}\tmanifest\n040000 tree {packs_tree}\tpacks\n".encode()).decode().strip()
    commit = bare_git(bare, "-c", "user.name=daybook", "-c", "user.email=daybook@invalid", "commit-tree", root, "-p", "main",
                      "-m", "daybook encrypted remote").decode().strip()
    bare_git(bare, "update-ref", "refs/heads/main", commit)


def planted_commit(d, edit):
    """A commit on top of machine d's history, made with git in a copy of its repository, and a
    pack of what it adds: what someone who once held the history could push."""
    work = d.path.parent / "forger"
    shutil.rmtree(work, ignore_errors=True)
    subprocess.run(["git", "clone", "-q", str(d.path), str(work)], check=True, env=d.env)
    edit(work)
    subprocess.run(["git", "add", "-A"], cwd=work, check=True, env=d.env)
    subprocess.run(["git", "commit", "-q", "-m", "planted"], cwd=work, check=True, env=d.env)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=work, capture_output=True, text=True, check=True).stdout.strip()
    objects = subprocess.run(["git", "rev-list", "--objects", "HEAD", "^HEAD~1"], cwd=work, capture_output=True, check=True).stdout
    pack = subprocess.run(["git", "pack-objects", "--stdout"], cwd=work, input=objects, capture_output=True, check=True).stdout
    return head, pack


def diary_id(d):
    return next(line.split(":", 1)[1].strip() for line in (d.path / "daybook.yml").read_text().splitlines() if line.startswith("id:"))


@pytest.fixture
def three(tmp_path, served):
    """Machines a, b and c with their own keys, all recipients, all synced through the remote."""
    bare, url = served
    a, b, c = keyed(tmp_path, "a"), keyed(tmp_path, "b"), keyed(tmp_path, "c")
    a.ok("key", "add", "a-laptop")
    a.ok("key", "add", "b-desktop", b.pub)
    a.ok("key", "add", "c-tablet", c.pub)
    a.ok("new", "Before", "-m", "everyone may read this", "--date", "2026-11-20 08:00")
    r = a.ok("sync", "--set-remote", url, "--encrypt")
    # The first push says whom it is sealed for, with the fingerprints to compare.
    assert "trusting 3 recipients" in r.err and fingerprint(b.pub) in r.err, r
    for d in (b, c):
        r = d.ok("sync", "--set-remote", url, "--encrypt")
        # A first join shows the fingerprints it trusts.
        assert "trusting 3 recipients" in r.err and all(fingerprint(k) in r.err for k in (a.pub, b.pub, c.pub)), r
    for d in (a, b, c):
        d.bare, d.url = bare, url
    return a, b, c


def test_a_stranger_who_knows_the_public_keys_cannot_add_itself(three):
    """The first attack: a push carrying a recipients.yml with one more key, sealed for every
    recipient, signed by a key nobody trusts: refused on every device, nothing merged."""
    a, b, c = three
    intruder = Keys()
    head, pack = planted_commit(a, lambda w: (w / "recipients.yml").write_text(
        (w / "recipients.yml").read_text() + f"host: {intruder.pub}\n"))
    name, sealed_pack, entry = seal_pack(pack)
    content = {"format": 2, "sequence": 50, "refs": {"main": head}, "packs": [entry], "diary": diary_id(a),
               "previous": hashlib.sha256(remote_manifest(a.bare)).hexdigest(),
               "recipients": [{"name": n, "key": k} for n, k in
                              (("a-laptop", a.pub), ("b-desktop", b.pub), ("c-tablet", c.pub), ("host", intruder.pub))]}
    push_forged(a.bare, seal_manifest(content, [a.pub, b.pub, c.pub, intruder.pub], intruder.ed), [(name, sealed_pack)])
    for d in (a, b):
        before = state(d)
        r = d.run("sync")
        assert r.rc == 2, r
        assert "a key this device does not trust" in r.err and fingerprint(intruder.pub) in r.err and "nothing was merged" in r.err, r
        assert state(d)[:2] == before[:2]
        assert intruder.pub not in (d.path / "recipients.yml").read_text()
        assert "host" not in d.ok("key", "ls").out


def test_a_signature_that_names_a_trusted_key_but_was_made_by_another_fails(three):
    a, b, c = three
    intruder = Keys()
    content = {"format": 2, "sequence": 50, "refs": {}, "packs": [], "diary": diary_id(a),
               "recipients": [{"name": "a-laptop", "key": a.pub}, {"name": "b-desktop", "key": b.pub}]}
    a_signing = b64d(a.pub[8:])[32:]
    push_forged(a.bare, seal_manifest(content, [a.pub, b.pub], intruder.ed, claimed_signer=a_signing), [])
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2 and "signature that does not check" in r.err, r
    assert state(b)[:2] == before[:2]


def test_a_removed_recipient_cannot_re_add_itself_nor_erase_an_entry(three):
    """The removed recipient knows everything a recipient knew before its removal: the diary's id,
    its commits, its own key; it reads the host's manifest digest. Its push re-adding itself (and
    erasing an entry by a forged purge record) is refused by every device that read the removal."""
    a, b, c = three
    a.ok("key", "rm", "c-tablet")
    a.ok("new", "After", "-m", "not for c", "--date", "2026-11-20 09:00")
    a.ok("sync")
    r = b.ok("sync")
    # The removal arrived by a push from a, signed by a: applied, and said with the fingerprint.
    assert f"recipient c-tablet (fingerprint {fingerprint(c.pub)}) removed by a push from another device" in r.err, r
    assert titles(b) == ["After", "Before"]
    victim = next(e["id"] for e in b.ok("ls", "--json").json() if e["title"] == "Before")
    folder = next(b.path.rglob(victim + ".md")).parent.relative_to(b.path).as_posix()
    own = Keys.of(c)
    digest = hashlib.sha256(victim.encode()).hexdigest()

    def plant(w):
        (w / "purged.yml").write_text(f"{digest}: {{folder: {folder}, purged: 2026-11-20T10:00}}\n")
    head, pack = planted_commit(c, plant)
    name, sealed_pack, entry = seal_pack(pack)
    content = {"format": 2, "sequence": 99, "refs": {"main": head}, "packs": [entry], "diary": diary_id(c),
               "previous": hashlib.sha256(remote_manifest(a.bare)).hexdigest(),
               "recipients": [{"name": "a-laptop", "key": a.pub}, {"name": "b-desktop", "key": b.pub},
                              {"name": "c-tablet", "key": c.pub}]}
    push_forged(a.bare, seal_manifest(content, [a.pub, b.pub, c.pub], own.ed), [(name, sealed_pack)])
    for d in (a, b):
        before = state(d)
        r = d.run("sync")
        assert r.rc == 2, r
        assert "does not trust" in r.err and fingerprint(c.pub) in r.err and "removed recipient" in r.err, r
        assert state(d)[:2] == before[:2]
        assert titles(d) == ["After", "Before"]
        assert c.pub not in (d.path / "recipients.yml").read_text()


def test_a_recipient_added_by_a_trusted_push_is_said_and_then_trusted(three, tmp_path):
    a, b, c = three
    d = keyed(tmp_path, "d")
    a.ok("key", "add", "d-phone", d.pub)
    r = a.ok("sync")
    assert f"recipient d-phone (fingerprint {fingerprint(d.pub)}) added" in r.err, r
    r = b.ok("sync")
    assert f"recipient d-phone (fingerprint {fingerprint(d.pub)}) added by a push from another device" in r.err, r
    d.ok("sync", "--set-remote", a.url, "--encrypt")
    d.ok("new", "From d", "-m", "new device", "--date", "2026-11-20 11:00")
    d.ok("sync")
    b.ok("sync")
    assert "From d" in titles(b)


def test_another_diarys_manifest_is_refused(tmp_path, served):
    """The host serves diary X's sealed branch as diary Y's: the same device key and recipients
    open both, so only the diary id in the signed manifest tells them apart."""
    bare, url = served
    other = bare.parent / "other.git"
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(other)], check=True)
    y = keyed(tmp_path, "y")
    x = machine(tmp_path, "x")
    (x.home / "config" / "daybook").mkdir(parents=True)
    shutil.copy(y.home / "config" / "daybook" / "key", x.home / "config" / "daybook" / "key")
    x.init()
    for d, name in ((y, "Diary Y entry"), (x, "Diary X secret")):
        d.ok("key", "add", "me")
        d.ok("new", name, "-m", "body", "--date", "2026-11-20 08:00")
    y.ok("sync", "--set-remote", url, "--encrypt")
    x.ok("sync", "--set-remote", url.replace("remote.git", "other.git"), "--encrypt")
    for _ in range(3):
        x.ok("new", "More of X", "-m", "body", "--date", "2026-11-20 09:00")
        x.ok("sync")
    bare_git(bare, "fetch", "-q", "-f", str(other), "+main:main")
    before = state(y)
    r = y.run("sync")
    assert r.rc == 2 and "belongs to another diary" in r.err and "nothing was merged" in r.err, r
    assert state(y)[:2] == before[:2]
    assert titles(y) == ["Diary Y entry"]


def test_an_old_manifest_replayed_to_a_device_that_read_a_newer_one_is_refused(three, tmp_path):
    a, b, c = three
    fresh = keyed(tmp_path, "fresh")
    a.ok("key", "add", "fresh", fresh.pub)
    a.ok("sync")
    b.ok("sync")
    old = bare_git(a.bare, "rev-parse", "main").decode().strip()
    a.ok("new", "Newer", "-m", "two", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b.ok("sync")
    fresh.ok("sync", "--set-remote", a.url, "--encrypt")
    assert "Newer" in titles(fresh)
    bare_git(a.bare, "update-ref", "refs/heads/main", old)
    for d in (fresh, b):
        before = state(d)
        r = d.run("sync")
        assert r.rc == 2 and "older state" in r.err and "nothing was merged" in r.err, r
        assert state(d)[:2] == before[:2]


def test_a_key_that_lost_its_signing_half_is_refused_until_retrust(three):
    """Legitimate but untrusted: b's key file lost its signing line, so b gets a new one (said
    once) and its pushes are signed by a key a never saw. `--retrust` shows the fingerprints it
    then trusts, and the sync goes through."""
    a, b, c = three
    key = b.home / "config" / "daybook" / "key"
    key.write_text(key.read_text().split("\n")[0] + "\n")
    b.ok("new", "From b", "-m", "new signing key", "--date", "2026-11-20 10:00")
    r = b.ok("sync")
    assert r.err.count("now has a signing half") == 1, r
    assert "recipient b-desktop (this device) now carries this device's whole key" in r.err, r
    r = b.ok("sync")
    assert "signing half" not in r.err, r
    new_pub = next(line.split()[1] for line in b.ok("key", "ls").out.splitlines() if line.startswith("b-desktop"))
    before = state(a)
    r = a.run("sync")
    assert r.rc == 2 and "recipient `b-desktop` now signs its pushes with a key this device does not trust yet" in r.err, r
    assert fingerprint(new_pub) in r.err and "--retrust" in r.err, r
    assert state(a)[:2] == before[:2]
    r = a.ok("sync", "--retrust")
    assert "trusting 3 recipients" in r.err and fingerprint(new_pub) in r.err, r
    assert "From b" in titles(a)


def test_a_manifest_that_does_not_follow_the_last_one_read_is_refused(three):
    """A signed manifest from another line of pushes (a fork the host keeps, here signed with a's
    own key as a genuine device would) must name the manifest this device read last."""
    a, b, c = three
    a.ok("new", "Second", "-m", "two", "--date", "2026-11-20 09:00")
    a.ok("sync")
    b.ok("sync")
    signer, content = open_manifest(remote_manifest(a.bare), Keys.of(b))
    assert signer == b64d(a.pub[8:])[32:] and content["diary"] == diary_id(a) and len(content["previous"]) == 64
    content["sequence"] += 1
    content["previous"] = hashlib.sha256(b"another line of pushes").hexdigest()
    push_forged(a.bare, seal_manifest(content, [a.pub, b.pub, c.pub], Keys.of(a).ed), [])
    before = state(b)
    r = b.run("sync")
    assert r.rc == 2 and "does not follow push" in r.err and "nothing was merged" in r.err, r
    assert state(b)[:2] == before[:2]


def test_an_unrelated_history_on_a_sealed_remote_is_refused(three, tmp_path):
    """A diary made before diaries had ids (so no id to compare), with a recipient's key, meets a
    sealed remote holding another diary's history: no commit in common, refused, nothing lost."""
    a, b, c = three
    y = machine(tmp_path, "y")
    (y.home / "config" / "daybook").mkdir(parents=True)
    shutil.copy(b.home / "config" / "daybook" / "key", y.home / "config" / "daybook" / "key")
    y.init()
    yml = y.path / "daybook.yml"
    yml.write_text("".join(line for line in yml.read_text().splitlines(True) if not line.startswith("id:")))
    y.ok("new", "Diary Y entry", "-m", "mine", "--date", "2026-11-21 08:00")
    before = state(y)
    r = y.run("sync", "--set-remote", a.url, "--encrypt")
    assert r.rc == 2 and "no commit in common" in r.err and "nothing was merged" in r.err, r
    assert state(y)[:2] == before[:2] and titles(y) == ["Diary Y entry"]

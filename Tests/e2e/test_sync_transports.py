"""daybook sync wherever git works (issue 46): a host with its own certificate authority, git's
credential helpers, proxies, ~/.ssh/config and url.<base>.insteadOf. Every case is first shown to
work with `git push` from the same configuration, then with `daybook sync`, against servers the
tests start on 127.0.0.1: smart HTTP over TLS with Basic authentication (`git http-backend` behind
a small HTTPS front, a CA made with openssl), an HTTP CONNECT proxy and an sshd of its own."""
import os
import shutil
import subprocess

import pytest
from conftest import Diary
from transports import connect_proxy, https_git_server, make_ca, sshd, sshd_binary

pytestmark = pytest.mark.skipif(not shutil.which("openssl"), reason="openssl is not installed (scripts/setup installs it)")

HELPER = """#!/bin/sh
# A credential helper as git runs it: the action is the argument, the request comes on stdin.
echo "$1" >> "{log}"
cat >> "{log}.in"
if [ "$1" = get ]; then
  echo "username={user}"
  echo "password=$(cat "{secret}")"
fi
"""


def bare(root, name):
    path = root / name
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(path)], check=True)
    return path


def git_push(d, url, extra_env=None, ok=True):
    """A plain `git push` of a fresh repository to `url`, with the diary's HOME and configuration."""
    work = d.tmp / f"gitwork{len(list(d.tmp.glob('gitwork*')))}"
    work.mkdir()
    env = dict(d.env, **(extra_env or {}))
    run = lambda *a: subprocess.run(["git", *a], cwd=work, env=env, capture_output=True, text=True)
    run("init", "-q", "-b", "main")
    (work / "f.txt").write_text("hello\n")
    run("add", "f.txt")
    run("commit", "-q", "-m", "first")
    p = run("push", url, "main")
    assert (p.returncode == 0) == ok, p.stderr
    return p


def head(repo):
    return subprocess.run(["git", "rev-parse", "-q", "--verify", "main"], cwd=repo, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def lab(tmp_path):
    """A diary whose HOME's git config trusts the test CA (http.sslCAInfo) and names a credential
    helper (a shell function calling the script) that answers with the right password; an HTTPS git
    server with two empty bare repositories."""
    d = Diary(tmp_path)
    d.init()
    d.ok("new", "-m", "Met the ward nurses.", "Fieldwork")
    srv = tmp_path / "srv"
    srv.mkdir()
    bare(srv, "plain.git")
    d.remote = bare(srv, "diary.git")
    ca, cert, key = make_ca(tmp_path / "tls")
    d.ca = ca
    d.log = tmp_path / "helper.log"
    d.secret = tmp_path / "secret"
    d.secret.write_text("s3cret")
    helper = tmp_path / "helper.sh"
    helper.write_text(HELPER.format(log=d.log, user="researcher", secret=d.secret))
    helper.chmod(0o755)
    with open(d.home / ".gitconfig", "a") as f:
        f.write(f'[http]\n\tsslCAInfo = {ca}\n[credential]\n\thelper = "!f() {{ {helper} \\"$@\\"; }}; f"\n')
    with https_git_server(srv, cert, key) as server:
        d.server = server
        d.base = f"https://localhost:{server.port}"
        yield d


def actions(d):
    return d.log.read_text().split() if d.log.exists() else []


def test_a_host_with_its_own_ca_and_a_credential_helper(lab):
    git_push(lab, lab.base + "/plain.git")
    assert actions(lab) == ["get", "store"]  # what git does with the same configuration
    lab.log.unlink()
    r = lab.ok("sync", "--set-remote", lab.base + "/diary.git")
    assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()
    # fill with `get`, then the helpers are told `store` after the remote accepted the login.
    assert actions(lab)[0] == "get" and "store" in actions(lab) and "erase" not in actions(lab), r
    request = (lab.tmp / "helper.log.in").read_text()
    assert "protocol=https\n" in request and f"host=localhost:{lab.server.port}\n" in request
    assert "password=s3cret" in request  # the credential given back to `store`
    assert "refused" not in lab.server.logins


def test_without_the_ca_the_certificate_is_refused_and_the_message_says_what_to_set(lab):
    (lab.home / ".gitconfig").write_text((lab.home / ".gitconfig").read_text().replace("sslCAInfo", "sslCAInfoX"))
    git_push(lab, lab.base + "/plain.git", ok=False)
    r = lab.run("sync", "--set-remote", lab.base + "/diary.git")
    assert r.rc != 0 and "certificate" in r.err and "http.sslCAInfo" in r.err, r
    assert head(lab.remote) == ""  # nothing reached the remote: verification is never turned off
    assert lab.server.requests == 0


@pytest.mark.parametrize("variable", ["GIT_SSL_CAINFO", "SSL_CERT_FILE", "per-url"])
def test_the_ca_from_the_environment_or_per_url(lab, variable):
    text = (lab.home / ".gitconfig").read_text().replace(f"\tsslCAInfo = {lab.ca}\n", "")
    env = {}
    if variable == "per-url":
        # http.<url>.sslCAInfo: for this host only (another host's setting does not apply).
        text += f'[http "https://elsewhere.example.org"]\n\tsslCAInfo = /nonexistent.pem\n'
        text += f'[http "{lab.base}/"]\n\tsslCAInfo = {lab.ca}\n'
    else:
        env[variable] = str(lab.ca)
    (lab.home / ".gitconfig").write_text(text)
    if variable != "SSL_CERT_FILE":  # git's TLS here (GnuTLS) does not read OpenSSL's variable
        git_push(lab, lab.base + "/plain.git", env)
    lab.ok("sync", "--set-remote", lab.base + "/diary.git", env=env)
    assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()


def test_a_host_given_by_its_ip_address_with_a_matching_certificate(lab):
    url = f"https://127.0.0.1:{lab.server.port}"
    git_push(lab, url + "/plain.git")
    r = lab.run("sync", "--set-remote", url + "/diary.git")
    assert r.rc == 0, r
    assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()


def test_a_wrong_password_from_the_helper_is_rejected_and_said(lab):
    lab.secret.write_text("wrong")
    git_push(lab, lab.base + "/plain.git", ok=False)
    assert actions(lab) == ["get", "erase"]  # git's own reject
    lab.log.unlink()
    r = lab.run("sync", "--set-remote", lab.base + "/diary.git")
    assert r.rc != 0
    assert actions(lab) == ["get", "erase"], r
    assert "refused the login of researcher" in r.err and "credential helper" in r.err and "erase" in r.err, r
    assert head(lab.remote) == ""


def test_daybook_git_token_stays_first(lab):
    lab.secret.write_text("wrong")
    url = lab.base.replace("https://", "https://researcher@") + "/diary.git"
    r = lab.ok("sync", "--set-remote", url, env={"DAYBOOK_GIT_TOKEN": "s3cret"})
    assert actions(lab) == [], r  # no helper asked
    assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()


@pytest.mark.parametrize("how", ["https_proxy", "HTTPS_PROXY", "http.proxy", "http.<url>.proxy"])
def test_through_a_connect_proxy(lab, how):
    with connect_proxy() as proxy:
        env = {}
        address = f"http://127.0.0.1:{proxy.port}"
        if "." not in how:
            env[how] = address
        elif how == "http.proxy":
            with open(lab.home / ".gitconfig", "a") as f:
                f.write(f"[http]\n\tproxy = {address}\n")
        else:
            with open(lab.home / ".gitconfig", "a") as f:
                f.write(f'[http "{lab.base}"]\n\tproxy = {address}\n')
        git_push(lab, lab.base + "/plain.git", env)
        carried = len(proxy.tunnels)
        assert carried > 0
        lab.ok("sync", "--set-remote", lab.base + "/diary.git", env=env)
        assert len(proxy.tunnels) > carried, "the sync did not go through the proxy"
        assert set(proxy.tunnels) == {f"localhost:{lab.server.port}"}
        assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()
        # no_proxy naming the host: straight there, the proxy carries nothing more.
        if how in ("https_proxy", "http.proxy"):
            carried = len(proxy.tunnels)
            lab.ok("new", "-m", "x", "More")
            lab.ok("sync", env=dict(env, no_proxy="example.org,localhost"))
            assert len(proxy.tunnels) == carried
            assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()


def test_a_proxy_that_is_not_there_is_named_in_the_failure(lab):
    env = {"https_proxy": "http://127.0.0.1:9"}
    r = lab.run("sync", "--set-remote", lab.base + "/diary.git", env=env)
    assert r.rc != 0 and head(lab.remote) == ""
    assert "proxy http://127.0.0.1:9" in r.err and "https_proxy" in r.err, r


def test_insteadof_and_pushinsteadof(lab):
    with open(lab.home / ".gitconfig", "a") as f:
        f.write(f'[url "{lab.base}/"]\n\tinsteadOf = lab:\n')
    git_push(lab, "lab:plain.git")
    lab.ok("sync", "--set-remote", "lab:diary.git")
    assert head(lab.remote) == lab.git("rev-parse", "HEAD").strip()
    assert lab.git("config", "remote.origin.url").strip() == "lab:diary.git"  # kept as written
    # pushInsteadOf: fetch from one place, push to another.
    mirror = bare(lab.tmp / "srv", "pushed.git")
    with open(lab.home / ".gitconfig", "a") as f:
        f.write(f'[url "{lab.base}/pushed"]\n\tpushInsteadOf = lab:diary\n')
    lab.ok("new", "-m", "y", "Second")
    lab.ok("sync")
    assert head(mirror) == lab.git("rev-parse", "HEAD").strip()
    assert head(lab.remote) != head(mirror)


def test_the_encrypted_remote_over_https_with_the_helper(lab):
    lab.env["XDG_CONFIG_HOME"] = str(lab.home / "config")
    lab.ok("key", "new")
    lab.ok("key", "add", "laptop")
    lab.ok("sync", "--set-remote", lab.base + "/diary.git", "--encrypt")
    blob = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=lab.remote,
                          capture_output=True).stdout
    assert b"ward nurses" not in blob and head(lab.remote)
    assert "store" in actions(lab)


# SSH: an sshd of the test's own, reached through a ~/.ssh/config alias. OpenSSH reads the config
# of the account's home in /etc/passwd, not $HOME, so `git push` is pointed at the test's config
# with GIT_SSH_COMMAND="ssh -F ..."; daybook reads $HOME/.ssh/config as it is.
needs_sshd = pytest.mark.skipif(not sshd_binary(), reason="sshd is not installed (scripts/setup installs openssh-server)")


@pytest.fixture
def ssh_lab(tmp_path):
    d = Diary(tmp_path)
    d.init()
    d.ok("new", "-m", "Met the ward nurses.", "Fieldwork")
    srv = tmp_path / "srv"
    srv.mkdir()
    bare(srv, "plain.git")
    d.remote = bare(srv, "diary.git")
    dot = d.home / ".ssh"
    dot.mkdir(mode=0o700)
    d.key = dot / "work_key"  # not a default name: only IdentityFile finds it
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(d.key)], check=True)
    user = subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()
    with sshd(tmp_path / "sshd", d.key.with_suffix(".pub").read_text(), user) as (port, hostkey):
        d.port, d.hostkey, d.user = port, hostkey, user
        d.known = dot / "known_hosts"
        d.known.write_text(f"[127.0.0.1]:{port} {hostkey}\n")
        d.config = dot / "config"
        d.config.write_text(f"Host other\n\tHostName 192.0.2.1\n\tPort 1\n\n"
                            f"Host lab-work\n\tHostName 127.0.0.1\n\tUser {user}\n\tPort {port}\n"
                            f"\tIdentityFile {d.key}\n\tIdentitiesOnly yes\n"
                            f"\tUserKnownHostsFile {d.known}\n\tStrictHostKeyChecking yes\n"
                            f"\nHost *\n\tPort 2\n\tIdentityFile ~/.ssh/nothing_here\n")
        d.sshenv = {"GIT_SSH_COMMAND": f"ssh -F {d.config}", "SSH_AUTH_SOCK": ""}
        yield d


@needs_sshd
def test_ssh_through_a_config_alias(ssh_lab):
    d = ssh_lab
    git_push(d, f"lab-work:{d.tmp}/srv/plain.git", d.sshenv)
    d.ok("sync", "--set-remote", f"lab-work:{d.tmp}/srv/diary.git", env={"SSH_AUTH_SOCK": ""})
    assert head(d.remote) == d.git("rev-parse", "HEAD").strip()
    # and the encrypted remote over the same alias
    d.env["XDG_CONFIG_HOME"] = str(d.home / "config")
    d.ok("key", "new")
    d.ok("key", "add", "laptop")
    sealed = bare(d.tmp / "srv", "sealed.git")
    d.ok("sync", "sealed", "--set-remote", f"ssh://lab-work{d.tmp}/srv/sealed.git", "--encrypt", env={"SSH_AUTH_SOCK": ""})
    blob = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=sealed, capture_output=True).stdout
    assert head(sealed) and b"ward nurses" not in blob


@needs_sshd
def test_an_unknown_host_key_says_what_to_do(ssh_lab):
    d = ssh_lab
    d.known.write_text("")
    git_push(d, f"lab-work:{d.tmp}/srv/plain.git", d.sshenv, ok=False)
    r = d.run("sync", "--set-remote", f"lab-work:{d.tmp}/srv/diary.git", env={"SSH_AUTH_SOCK": ""})
    assert r.rc != 0 and head(d.remote) == ""
    fingerprint = subprocess.run(["ssh-keygen", "-lf", str(d.tmp / "sshd" / "host_ed25519.pub")],
                                 capture_output=True, text=True).stdout.split()[1]
    assert "known_hosts" in r.err and "`ssh lab-work`" in r.err and fingerprint in r.err, r


@needs_sshd
def test_a_key_with_a_passphrase_and_no_agent_is_named_as_the_reason(ssh_lab):
    d = ssh_lab
    subprocess.run(["ssh-keygen", "-q", "-p", "-P", "", "-N", "a passphrase", "-f", str(d.key)], check=True)
    r = d.run("sync", "--set-remote", f"lab-work:{d.tmp}/srv/diary.git", env={"SSH_AUTH_SOCK": ""})
    assert r.rc != 0 and head(d.remote) == ""
    assert f"{d.key} has a passphrase and no SSH agent is running" in r.err and "ssh-add" in r.err, r


def test_a_certificate_without_the_address_is_refused_for_that_address(tmp_path, lab):
    # A second server whose certificate names localhost only: reached by 127.0.0.1 it must fail.
    ca, cert, key = make_ca(tmp_path / "tls-names-only", names=("localhost",), ips=())
    with open(lab.home / ".gitconfig", "a") as f:
        f.write(f"[http]\n\tsslCAInfo = {ca}\n")
    with https_git_server(lab.tmp / "srv", cert, key) as other:
        url = f"https://127.0.0.1:{other.port}/diary.git"
        git_push(lab, f"https://127.0.0.1:{other.port}/plain.git", ok=False)
        r = lab.run("sync", "--set-remote", url)
        assert r.rc != 0 and "certificate of 127.0.0.1 does not hold for that address" in r.err, r
        assert other.requests == 0 and head(lab.remote) == ""


def test_a_study_clones_and_fetches_through_the_same_configuration(lab):
    with open(lab.home / ".gitconfig", "a") as f:
        f.write(f'[url "{lab.base}/"]\n\tinsteadOf = lab:\n')
    lab.ok("sync", "--set-remote", "lab:diary.git")
    study = lab.tmp / "study"
    study.mkdir()
    (study / "study.yml").write_text("name: Ward study\nparticipants:\n  p01:\n    diary: lab:diary.git\n")
    lab.log.unlink()
    r = lab.run("study", "sync", cwd=study)
    assert r.rc == 0, r
    clones = [p.parent for p in study.rglob(".git") if p.parent != study]
    assert len(clones) == 1 and list(clones[0].rglob("*fieldwork*.md")), r
    # origin keeps the URL as written, as git's clone keeps it; the next sync fetches through it again.
    assert lab.git("config", "remote.origin.url", cwd=clones[0]).strip() == "lab:diary.git"
    lab.ok("new", "-m", "later", "Later")
    lab.ok("sync")
    lab.ok("study", "sync", cwd=study)
    assert lab.git("rev-parse", "HEAD", cwd=clones[0]).strip() == head(lab.remote)
    assert actions(lab).count("get") >= 2 and "erase" not in actions(lab)


def test_the_encrypted_remote_through_a_proxy_named_for_the_remote(lab):
    lab.env["XDG_CONFIG_HOME"] = str(lab.home / "config")
    lab.ok("key", "new")
    lab.ok("key", "add", "laptop")
    with connect_proxy() as proxy:
        lab.ok("sync", "--set-remote", lab.base + "/diary.git", "--encrypt")
        assert proxy.tunnels == []
        lab.git("config", "remote.origin.proxy", f"http://127.0.0.1:{proxy.port}")
        lab.ok("new", "-m", "sealed later", "Later")
        lab.ok("sync")
        assert len(proxy.tunnels) >= 2  # the fetch and the push of the sealed history
    blob = subprocess.run(["git", "cat-file", "--batch-all-objects", "--batch"], cwd=lab.remote,
                          capture_output=True).stdout
    assert b"sealed later" not in blob

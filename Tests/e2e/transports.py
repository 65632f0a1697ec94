"""Git servers and networks as researchers meet them, for the sync transport tests: a certificate
authority made with openssl, a smart-HTTP git server over TLS (`git http-backend` behind a small
HTTPS front with Basic authentication), an HTTP CONNECT proxy that counts the connections it
carried, and an sshd of its own. Each runs on 127.0.0.1 until its block ends."""
import base64
import os
import shutil
import socket
import ssl
import subprocess
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import wait_until_listening


def make_ca(folder, names=("localhost",), ips=("127.0.0.1",)):
    """A certificate authority and a server certificate it signed for `names` and `ips`; returns
    (ca.pem, server.pem, server.key)."""
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.pem", "server.key", "server.csr", "server.pem"))
    run = lambda *a: subprocess.run(["openssl", *map(str, a)], check=True, capture_output=True)
    run("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", ca_key,
        "-out", ca, "-days", "2", "-subj", "/CN=daybook test CA")
    run("req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", key, "-out", csr,
        "-subj", f"/CN={names[0] if names else ips[0]}")
    ext = folder / "ext.cnf"
    alt = ",".join([f"DNS:{n}" for n in names] + [f"IP:{i}" for i in ips])
    ext.write_text(f"subjectAltName={alt}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "2",
        "-extfile", ext)
    return ca, cert, key


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _backend():
    p = subprocess.run(["git", "--exec-path"], capture_output=True, text=True, check=True)
    return os.path.join(p.stdout.strip(), "git-http-backend")


@contextmanager
def https_git_server(root, cert, key, user="researcher", password="s3cret"):
    """Smart HTTP over TLS for the bare repositories under `root`, Basic authentication with
    `user`/`password` on every request; yields an object with `.port`, `.logins` (the
    Authorization outcomes: 'ok' or 'refused') and `.requests`."""
    backend = _backend()
    expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def _body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0].strip(), 16)
                    if size == 0:
                        self.rfile.readline()
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def _serve(self):
            body = self._body() if self.command == "POST" else b""
            server.requests += 1
            if self.headers.get("Authorization") != expected:
                server.logins.append("refused" if self.headers.get("Authorization") else "asked")
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="git"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            server.logins.append("ok")
            path, _, query = self.path.partition("?")
            env = {"GIT_PROJECT_ROOT": str(root), "GIT_HTTP_EXPORT_ALL": "1", "REQUEST_METHOD": self.command,
                   "PATH_INFO": path, "QUERY_STRING": query, "REMOTE_USER": user, "REMOTE_ADDR": "127.0.0.1",
                   "CONTENT_TYPE": self.headers.get("Content-Type", ""), "CONTENT_LENGTH": str(len(body)),
                   "PATH": os.environ.get("PATH", "/usr/bin:/bin")}
            for k, v in self.headers.items():
                env["HTTP_" + k.upper().replace("-", "_")] = v
            out = subprocess.run([backend], input=body, capture_output=True, env=env).stdout
            head, _, payload = out.partition(b"\r\n\r\n")
            if not _:
                head, _, payload = out.partition(b"\n\n")
            status, headers = 200, []
            for line in head.decode().splitlines():
                k, _, v = line.partition(":")
                if k.lower() == "status":
                    status = int(v.split()[0])
                else:
                    headers.append((k, v.strip()))
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = _serve

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.logins, server.requests = [], 0
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    server.port = server.server_address[1]
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def connect_proxy():
    """An HTTP proxy that carries CONNECT tunnels only; yields an object whose `.port` is its
    port and `.tunnels` the list of host:port it carried."""
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)

    class State:
        port = listener.getsockname()[1]
        tunnels = []

    def pipe(a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                try:
                    s.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def handle(client):
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = client.recv(4096)
            if not chunk:
                client.close()
                return
            head += chunk
        line = head.split(b"\r\n")[0].decode()
        method, target, _ = line.split(" ", 2)
        if method != "CONNECT":
            client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            client.close()
            return
        host, _, port = target.rpartition(":")
        upstream = socket.create_connection((host, int(port)))
        State.tunnels.append(target)
        client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        threading.Thread(target=pipe, args=(client, upstream), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client), daemon=True).start()

    def accept():
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=handle, args=(client,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield State
    finally:
        listener.close()


def sshd_binary():
    return shutil.which("sshd") or ("/usr/sbin/sshd" if os.path.exists("/usr/sbin/sshd") else None)


@contextmanager
def sshd(folder, authorized_key, user):
    """An sshd of its own on 127.0.0.1 (its config and host key in `folder`) that lets `user` in
    with `authorized_key` only; yields (port, host public key line)."""
    folder.mkdir(parents=True, exist_ok=True)
    host_key = folder / "host_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(host_key)], check=True)
    auth = folder / "authorized_keys"
    auth.write_text(authorized_key)
    os.chmod(auth, 0o600)
    os.chmod(folder, 0o755)
    port = free_port()
    config = folder / "sshd_config"
    config.write_text(
        f"Port {port}\nListenAddress 127.0.0.1\nHostKey {host_key}\nPidFile {folder}/sshd.pid\n"
        f"AuthorizedKeysFile {auth}\nStrictModes no\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
        f"PubkeyAuthentication yes\nUsePAM no\nAllowUsers {user}\nPermitRootLogin yes\n"
        f"SetEnv PATH={os.environ.get('PATH', '/usr/bin:/bin')}\n")
    try:
        os.makedirs("/run/sshd", exist_ok=True)  # the privilege separation folder sshd insists on
    except OSError as e:
        pytest.skip(f"sshd cannot run here: /run/sshd cannot be made ({e})")
    p = subprocess.Popen([sshd_binary(), "-D", "-e", "-f", str(config)], stdout=subprocess.DEVNULL,
                         stderr=open(folder / "sshd.log", "w"))
    try:
        wait_until_listening(port, pause=0.02)
        yield port, (folder / "host_ed25519.pub").read_text().strip()
    finally:
        p.terminate()
        p.wait(timeout=10)

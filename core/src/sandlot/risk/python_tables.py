"""Qualified-name tables of the Python analyzer: which calls do what.

Names are as the analyzer resolves them: ``module.function`` for module-level callables,
``module.Class()`` for instances (``socket.socket().send``), ``builtins.name`` for builtins.
"""

from __future__ import annotations

import re

BIG_ALLOCATION = 1 << 30  # 1 GiB
# Classes whose subclasses' self.request / self.rfile carry what a network client sent.
REQUEST_HANDLER_BASES = ("socketserver.", "http.server.BaseHTTPRequestHandler", "http.server.SimpleHTTPRequestHandler")
HUGE_LOOP = 100_000
#: Tasks started at once (``asyncio.gather`` over a range) beyond which it is a flood, not a batch.
MASS_TASKS = 10_000
BIG_MATERIALISED = 100_000_000  # elements: list(range(10**8)) is several GB

#: Python 3's builtins, and Python 2's that old scripts still call (``execfile``, ``raw_input``).
BUILTINS = frozenset(dir(__import__("builtins"))) | {"execfile", "raw_input", "reload", "unicode", "xrange"}
QUAL_ALIASES = {
    "posixpath": "os.path", "ntpath": "os.path", "posix": "os", "nt": "os", "_io.open": "builtins.open",
    "io.open": "builtins.open", "codecs.open": "builtins.open", "io.FileIO": "builtins.open",
    "os.fdopen": "builtins.open",
    "pathlib.PosixPath": "pathlib.Path", "pathlib.PurePath": "pathlib.Path",
    "pathlib.PurePosixPath": "pathlib.Path", "pathlib.WindowsPath": "pathlib.Path",
    "cPickle": "pickle", "_pickle": "pickle", "dill": "pickle", "cloudpickle": "pickle",
    "urllib2.urlopen": "urllib.request.urlopen", "_thread.start_new_thread": "threading.Thread",
    "builtins.__dict__": "builtins", "commands": "subprocess", "os.spawnlp": "os.spawnl",
    # Python 2's names for the same modules
    "httplib": "http.client", "urllib2": "urllib.request", "urllib.urlretrieve": "urllib.request.urlretrieve",
    "urllib.urlopen": "urllib.request.urlopen", "SocketServer": "socketserver", "BaseHTTPServer": "http.server",
    "SimpleHTTPServer": "http.server", "__builtin__": "builtins",
}  # fmt: skip
SHELL_CALLS = {
    "os.system": 0, "os.popen": 0, "subprocess.getoutput": 0, "subprocess.getstatusoutput": 0,
    "os.popen2": 0, "os.popen3": 0, "platform.popen": 0, "asyncio.create_subprocess_shell": 0,
    "pexpect.run": 0, "pexpect.spawn": 0, "os.startfile": 0,
    # a notebook kernel's `!cmd` as a call
    "IPython.get_ipython().system": 0, "IPython.get_ipython().getoutput": 0, "IPython.get_ipython().system_raw": 0,
}  # fmt: skip
SUBPROCESS = frozenset(
    {"subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output", "subprocess.Popen"}
)
EXEC_FAMILY = {
    # name: (index of the program path, index where the argv list or first arg starts, argv is a list)
    "os.execv": (0, 1, True), "os.execve": (0, 1, True), "os.execvp": (0, 1, True), "os.execvpe": (0, 1, True),
    "os.execl": (0, 2, False), "os.execle": (0, 2, False), "os.execlp": (0, 2, False), "os.execlpe": (0, 2, False),
    "os.spawnv": (1, 2, True), "os.spawnve": (1, 2, True), "os.spawnvp": (1, 2, True), "os.spawnvpe": (1, 2, True),
    "os.spawnl": (1, 3, False), "os.spawnle": (1, 3, False), "os.posix_spawn": (0, 1, True),
    "os.posix_spawnp": (0, 1, True), "asyncio.create_subprocess_exec": (0, 1, False),
    "pty.spawn": (0, 0, True),
}  # fmt: skip
EVAL_CALLS = frozenset(
    {
        "builtins.eval",
        "builtins.exec",
        "code.InteractiveInterpreter().runsource",
        "code.InteractiveInterpreter().runcode",
        "code.InteractiveConsole().push",
        "types.FunctionType",
        "builtins.execfile",
        "IPython.get_ipython().run_cell",
    }
)
# Calls under these prefixes send or receive over the network (urllib.parse, http.HTTPStatus do not).
NETWORK_PREFIXES = (
    "socket.", "ssl.", "http.client.", "urllib.request.", "urllib.urlopen", "urllib2.", "urllib3.", "requests.",
    "httpx.", "aiohttp.", "smtplib.", "ftplib.", "telnetlib.", "poplib.", "imaplib.", "paramiko.", "websocket.",
    "websockets.", "pycurl.", "xmlrpc.client.", "boto3.", "dns.resolver.", "scapy.", "nntplib.", "asyncssh.",
    "wandb.", "mlflow.", "huggingface_hub.", "openai.", "anthropic.", "ollama.", "litellm.", "cohere.",
    "google.generativeai.", "mistralai.", "groq.", "together.", "django.core.mail.send_mail",
    "django.core.mail.send_mass_mail", "django.core.mail.EmailMessage().send",
    "django.core.mail.EmailMultiAlternatives().send", "django.core.mail.mail_admins",
    "fabric.", "grpc.", "discord.", "telegram.", "slack_sdk.", "tweepy.", "pysftp.", "smbclient.", "smb.", "mechanize.",
    "urllib.response()", "requests.Response()", "httpx.Response()", "asyncio.open_connection", "dropbox.",
    "github.", "gspread.", "telethon.", "pyrogram.", "sendgrid.", "twilio.", "boxsdk.", "mega.", "webdav3.", "sodapy.",
    "pymsteams.", "yagmail.", "redmail.", "exchangelib.", "O365.", "gitlab.", "atlassian.", "notion_client.",
    "asyncio.start_server", "asyncio.open_unix_connection", "asyncio.StreamReader()", "asyncio.StreamWriter()",
    "zenpy.", "simple_salesforce.", "hubspot.", "intercom.", "freshdesk.", "pyzendesk.",
    # product analytics and marketing platforms: what they are given is sent to the vendor
    "analytics.track", "analytics.identify", "segment.analytics.", "mixpanel.", "posthog.", "amplitude.",
    "mailchimp_marketing.", "mailchimp3.", "klaviyo_api.", "facebook_business.", "google.ads.", "google.analytics.",
    "ccxt.",  # crypto exchanges
    "paho.mqtt.publish.", "paho.mqtt.client.Client().publish",  # MQTT messages: every subscriber gets them
    # feature-flag services: what a flag or variant carries was set on the vendor's side; contexts are sent there
    "ldclient.", "UnleashClient.", "openfeature.", "flagsmith.", "growthbook.", "configcatclient.", "statsig.",
    "splitio.",
)  # fmt: skip
NET_SOURCES = frozenset(
    {"urllib.request.urlopen", "requests.get", "requests.post", "requests.request", "requests.Session().get",
     "httpx.get", "httpx.post", "httpx.Client().get", "urllib3.PoolManager().request", "socket.socket().recv",
     "socket.socket().recvfrom", "socket.socket().makefile", "http.client.HTTPConnection().getresponse",
     "http.client.HTTPSConnection().getresponse", "ftplib.FTP().retrbinary", "paramiko.SSHClient().exec_command",
     "aiohttp.ClientSession().get", "socket.socket().recv_into", "requests.Session().post",
     "urllib.request.Request",
     # messages received from a broker: whoever can publish to the channel wrote them
     "redis.Redis().pubsub().listen", "redis.Redis().pubsub().get_message", "redis.StrictRedis().pubsub().listen",
     "pika.BlockingConnection().channel().consume", "pika.BlockingConnection().channel().basic_get",
     "confluent_kafka.Consumer().poll", "confluent_kafka.Consumer().consume", "kafka.KafkaConsumer().poll",
     "paho.mqtt.subscribe.simple"}
)  # fmt: skip
DECODERS = frozenset(
    {"base64.b64decode", "base64.standard_b64decode", "base64.urlsafe_b64decode", "base64.b32decode",
     "base64.b16decode", "base64.b85decode", "base64.a85decode", "base64.decodebytes", "base64.decodestring",
     "binascii.a2b_base64", "binascii.unhexlify", "binascii.a2b_hex", "builtins.bytes.fromhex",
     "builtins.bytearray.fromhex", "codecs.decode", "codecs.encode", "zlib.decompress", "gzip.decompress",
     "bz2.decompress", "lzma.decompress", "marshal.loads"}
)  # fmt: skip
PICKLE_LOADS = frozenset(
    {"pickle.loads", "pickle.load", "pickle.Unpickler", "jsonpickle.decode", "marshal.loads", "marshal.load",
     "shelve.open", "joblib.load", "torch.load", "numpy.load", "pandas.read_pickle", "yaml.load",
     "yaml.load_all", "yaml.unsafe_load", "yaml.unsafe_load_all", "yaml.full_load", "yaml.full_load_all",
     "ruamel.yaml.load", "pickle.Unpickler().load", "_pickle.loads"}
)  # fmt: skip
SAFE_YAML_LOADERS = ("SafeLoader", "CSafeLoader", "BaseLoader", "CBaseLoader")
DELETE_CALLS = {
    "shutil.rmtree": True, "os.remove": False, "os.unlink": False, "os.rmdir": False, "os.removedirs": True,
    "pathlib.Path().unlink": False, "pathlib.Path().rmdir": False, "send2trash.send2trash": False,
}  # fmt: skip
OPEN_CALLS = frozenset(
    {
        "builtins.open",
        "pathlib.Path().open",
        "os.open",
        "gzip.open",
        "bz2.open",
        "lzma.open",
        "tarfile.open",
        "zipfile.ZipFile",
        "aiofiles.open",
        "sqlite3.connect",
        "shelve.open",
        "wave.open",
        "h5py.File",
        "netCDF4.Dataset",
        "fileinput.input",
        "fileinput.FileInput",
    }
)
READ_CALLS = frozenset(
    {
        "pathlib.Path().read_text",
        "pathlib.Path().read_bytes",
        "numpy.loadtxt",
        "pandas.read_csv",
        "pandas.read_excel",
        "pandas.read_parquet",
        "pandas.read_json",
        "configparser.ConfigParser().read",
        "json.load",
        "os.path.getsize",
    }
)
WRITE_CALLS = frozenset(
    {
        "pathlib.Path().write_text",
        "pathlib.Path().write_bytes",
        "pathlib.Path().touch",
        "os.truncate",
        "os.mkfifo",
        "os.mknod",
        "os.write",
    }
)
COPY_CALLS = frozenset(
    {
        "shutil.copy",
        "shutil.copy2",
        "shutil.copyfile",
        "shutil.copytree",
        "shutil.move",
        "os.rename",
        "os.replace",
        "os.renames",
        "pathlib.Path().rename",
        "pathlib.Path().replace",
        "shutil.copyfileobj",
    }
)
STAT_CALLS = frozenset(
    {
        # load configuration from a secret file into this process (not a read-out of it)
        "dotenv.load_dotenv",
        # the interactive interpreter's own line history, loaded into and saved from its line editor
        "readline.read_history_file",
        "readline.write_history_file",
        "readline.append_history_file",
        "os.path.exists",
        "os.path.isfile",
        "os.path.isdir",
        "os.path.getmtime",
        "os.stat",
        "os.lstat",
        "os.access",
        "pathlib.Path().exists",
        "pathlib.Path().is_file",
        "pathlib.Path().is_dir",
        "pathlib.Path().stat",
        "os.path.islink",
        "os.path.expanduser",
        "os.path.join",
        "os.path.abspath",
        "os.path.realpath",
        "os.path.normpath",
        "os.path.dirname",
        "os.path.basename",
        "builtins.print",
        # an archive member's header (a name, not a file read): `tarfile.TarInfo("../../etc/passwd")`
        "tarfile.TarInfo",
        "zipfile.ZipInfo",
        # serialisers writing into a handle (json.dump(obj, fh)): a write, graded where the handle was opened
        "json.dump",
        "pickle.dump",
        "yaml.dump",
        "yaml.safe_dump",
        "toml.dump",
        "logging.info",
        "logging.debug",
        "logging.warning",
        "logging.error",
        "warnings.warn",
        # messages naming a path (``sys.exit(f"{key} already exists")``)
        "sys.exit",
        "builtins.SystemExit",
        "builtins.FileExistsError",
        "builtins.FileNotFoundError",
        "builtins.RuntimeError",
        "builtins.ValueError",
        "click.echo",
        "typer.echo",
        "paramiko.RSAKey.from_private_key_file",
        "paramiko.SSHClient().connect",
        "os.makedirs",
        "os.mkdir",
        "pathlib.Path().mkdir",
        "os.chmod",
        "pathlib.Path().chmod",
        "os.chown",
        "os.listdir",
        "os.scandir",
        "glob.glob",
        "os.walk",
        "subprocess.run",
        "subprocess.call",
        "subprocess.check_call",
        "subprocess.check_output",
        "subprocess.Popen",
        "os.system",
        "os.symlink",
        "os.link",
        "pathlib.Path().symlink_to",
    }
)
SPAWN_CALLS = frozenset(
    {
        "threading.Thread().start",
        "multiprocessing.Process().start",
        "subprocess.Popen",
        "os.system",
        "os.popen",
        "subprocess.run",
        "subprocess.call",
        "os.posix_spawn",
        "multiprocessing.Pool",
        "asyncio.create_subprocess_exec",
        "threading.Thread",
        "multiprocessing.Process",
    }
)
FORK_CALLS = frozenset({"os.fork", "os.forkpty", "pty.fork"})
GROWTH_METHODS = frozenset(
    {"append", "extend", "insert", "add", "update", "write", "appendleft", "put", "setdefault", "push"}
)
# Network calls that send something; in an endless loop without pause they are a flood.
SEND_METHODS = frozenset(
    {"send", "sendall", "sendto", "get", "post", "put", "head", "request", "urlopen", "connect", "connect_ex",
     "sendmail", "send_message", "delete", "patch"}
)  # fmt: skip
# Libraries that record the keyboard or read the screen/clipboard: spyware primitives.
KEYLOGGERS = frozenset(
    {"pynput.keyboard.Listener", "keyboard.on_press", "keyboard.hook", "keyboard.record", "keyboard.read_key",
     "keyboard.on_release", "pyHook.HookManager", "win32api.GetAsyncKeyState",
     "ctypes.windll.user32.GetAsyncKeyState"}
)  # fmt: skip
CAPTURES = frozenset(
    {"pyperclip.paste", "PIL.ImageGrab.grab", "PIL.ImageGrab.grabclipboard", "pyautogui.screenshot",
     "mss.mss().grab", "mss.mss().shot", "tkinter.Tk().clipboard_get", "win32clipboard.GetClipboardData",
     "cv2.VideoCapture().read", "sounddevice.rec", "pyaudio.PyAudio().open().read", "picamera.PiCamera().capture",
     "picamera2.Picamera2().capture_array", "pyscreenshot.grab"}
)  # fmt: skip
#: Methods that write a file (an image, a frame, a table): under a new name per iteration of an
#: endless loop they fill the disk.
FILE_DUMP_METHODS = frozenset({"imwrite", "imsave", "savefig", "to_csv", "to_parquet", "tofile", "save", "dump",
                               "writestr", "write_videofile", "to_pickle", "to_feather"})  # fmt: skip
#: Constructors that open a device: a serial port, a camera, a microphone.
DEVICE_OPENERS = frozenset({"serial.Serial", "serial.serial_for_url", "cv2.VideoCapture", "sounddevice.InputStream",
                            "sounddevice.RawInputStream", "pyaudio.PyAudio().open", "picamera.PiCamera",
                            "picamera2.Picamera2", "usb.core.find"})  # fmt: skip
#: Keyword arguments that register a function called back with events or captured data.
CALLBACK_KWARGS = ("callback", "on_message", "on_press", "on_release", "on_click", "on_data", "stream_callback",
                   "on_connect", "handler", "cb")  # fmt: skip
#: Libraries whose callbacks receive what a microphone, camera, keyboard or mouse produced.
CAPTURE_PREFIXES = ("sounddevice.", "pyaudio.", "pynput.", "keyboard.", "mouse.", "cv2.", "picamera")
INTERPRETERS = frozenset(
    {"sh", "bash", "dash", "zsh", "ksh", "python", "python3", "perl", "ruby", "node", "php", "pwsh", "powershell"}
)  # fmt: skip
PROBES = frozenset({"ping", "fping", "arping", "nc", "ncat", "netcat", "nmap", "telnet", "curl", "nslookup", "dig"})
RUNTIMES = frozenset({"java", "node", "nodejs", "deno", "bun", "php", "ruby", "perl", "dotnet", "mono", "wine",
                      "bpftrace"})  # fmt: skip
SHELL_NAMES = frozenset({"sh", "bash", "dash", "zsh", "ksh", "ash", "fish", "cmd.exe", "powershell", "pwsh"})
PACING_CALLS = frozenset(
    {"exit", "_exit", "quit", "kill", "terminate", "input", "sleep", "accept", "recv", "get", "wait", "join",
     "select", "readline", "read", "poll", "next", "pop", "popleft", "recvfrom"}
)  # fmt: skip
EXIT_CALLS = frozenset({"sys.exit", "os._exit", "builtins.exit", "builtins.quit"})
INSTANCE_FACTORIES = {
    "mss.mss": "mss.mss()", "mss.mss.mss": "mss.mss()", "netrc.netrc": "netrc.netrc()",
    # the running kernel's shell (a notebook's builtin `get_ipython()` is the same object)
    "IPython.get_ipython": "IPython.get_ipython()", "builtins.get_ipython": "IPython.get_ipython()",
    "ssl.create_default_context().wrap_socket": "socket.socket()",  # (a TLS socket still receives network data)
    "shutil.disk_usage": "shutil.disk_usage()", "os.statvfs": "os.statvfs()",
    "pickle.dumps": "pickle.dumps()", "cloudpickle.dumps": "pickle.dumps()", "dill.dumps": "pickle.dumps()",
    "marshal.dumps": "pickle.dumps()",
    "pulumi.automation.select_stack": "pulumi.automation.select_stack()",
    "pulumi.automation.create_or_select_stack": "pulumi.automation.create_or_select_stack()",
    "socket.create_connection": "socket.socket()", "socket.socket().accept": "socket.socket()",
    "socket.fromfd": "socket.socket()", "socket.socket": "socket.socket()", "ssl.wrap_socket": "socket.socket()",
    "ssl.SSLContext().wrap_socket": "socket.socket()", "ctypes.cdll.LoadLibrary": "ctypes.CDLL()",
    "ctypes.windll.LoadLibrary": "ctypes.CDLL()", "ctypes.CDLL": "ctypes.CDLL()", "ctypes.PyDLL": "ctypes.CDLL()",
    "ctypes.WinDLL": "ctypes.CDLL()", "ctypes.cdll": "ctypes.CDLL()", "ctypes.windll.kernel32": "ctypes.CDLL()",
    "ctypes.LibraryLoader().LoadLibrary": "ctypes.CDLL()", "urllib.request.urlopen": "urllib.response()",
    "requests.get": "requests.Response()", "requests.post": "requests.Response()",
    "requests.Session().get": "requests.Response()", "httpx.get": "httpx.Response()",
    "psutil.process_iter": "psutil.process_iter()", "pathlib.Path.home": "pathlib.Path()",
    "pathlib.Path.cwd": "pathlib.Path()", "tempfile.NamedTemporaryFile": "builtins.open()",
    "subprocess.Popen": "subprocess.Popen()", "multiprocessing.Process": "multiprocessing.Process()",
    "threading.Thread": "threading.Thread()", "socket.socket().makefile": "builtins.open()",
}  # fmt: skip
NATIVE_DANGEROUS = frozenset(
    {"system", "execve", "execv", "execl", "execvp", "popen", "fork", "ptrace", "setuid", "setgid", "mprotect",
     "VirtualAlloc", "VirtualProtect", "CreateRemoteThread", "WriteProcessMemory", "dlopen", "kill", "prctl",
     "init_module", "finit_module", "delete_module", "process_vm_writev", "process_vm_readv", "setns", "unshare",
     "mount", "pivot_root", "chroot", "kexec_load",
     "CreateProcessA", "CreateProcessW", "WinExec", "ShellExecuteA", "ShellExecuteW", "memfd_create"}
)  # fmt: skip
#: x86_64 numbers of the system calls above, for ``libc.syscall(NR, ...)`` (ptrace, mount, pivot_root, init_module,
#: delete_module, kexec_load, unshare, setns, process_vm_readv/writev, finit_module, bpf).
NATIVE_DANGEROUS_SYSCALLS = frozenset({101, 155, 165, 175, 176, 246, 272, 308, 310, 311, 313, 321})
DANGEROUS_TARGETS = (
    frozenset(SHELL_CALLS) | SUBPROCESS | frozenset(EXEC_FAMILY) | EVAL_CALLS
    | frozenset({"builtins.compile", "builtins.__import__", "importlib.import_module", "pickle.loads",
                 "os.fork", "os.kill", "shutil.rmtree", "os.remove", "os.unlink", "ctypes.CDLL", "os.setuid"})
)  # fmt: skip
# Modules whose attributes, reached by a computed name, are a way to hide a dangerous call.
DANGEROUS_MODULES = frozenset(
    {
        "os",
        "subprocess",
        "builtins",
        "ctypes",
        "pty",
        "shutil",
        "importlib",
        "pickle",
        "marshal",
        "posix",
        "nt",
        "commands",
    }
)

#: Calls that load a key to authenticate with it (prefixes): the key is used, not read out.
KEY_USERS = (
    "sshtunnel.",
    # Akamai's EdgeGrid client loading its API credentials to sign requests
    "akamai.edgegrid.",
    # a GnuPG keyring opened to encrypt or sign with it
    "gnupg.GPG",
    # network automation libraries logging in to devices with a key
    "ncclient.",
    "netmiko.",
    "napalm.",
    "jnpr.",
    "scrapli.",
    "fabric.Connection",
    "asyncssh.connect",
    "paramiko.RSAKey.from_private_key_file",
    "paramiko.Ed25519Key.from_private_key_file",
    "paramiko.ECDSAKey.from_private_key_file",
    "paramiko.DSSKey.from_private_key_file",
    "paramiko.PKey.from_private_key_file",
    "paramiko.SSHClient().connect",
    "paramiko.client.SSHClient().connect",
    "asyncssh.read_private_key",
    "asyncssh.connect",
    "fabric.Connection",
    "ssl.SSLContext().load_cert_chain",
    "ssl.create_default_context().load_cert_chain",
)

#: Module-level objects holding the current web request (everything in them came from a client).
WEB_REQUESTS = frozenset({"flask.request", "quart.request", "bottle.request", "sanic.request", "werkzeug.request"})

#: Calls and methods that hand SQL text to a database.
SQL_METHODS = frozenset({"execute", "executemany", "executescript", "exec_driver_sql", "text", "raw", "query", "sql",
                         "RunSQL", "command"})  # (Django's `migrations.RunSQL`: run by `migrate`, in production too)

#: Cloud and cluster SDKs: their delete/terminate calls destroy remote resources.
CLOUD_PREFIXES = (
    "boto3.", "botocore.", "google.cloud.", "googleapiclient.", "azure.", "kubernetes.", "openstack.",
    "digitalocean.", "hcloud.", "linode_api4.", "oci.", "pulumi.", "github.", "gitlab.", "wandb.", "mlflow.",
    "kafka.admin.", "confluent_kafka.admin.", "pyiceberg.", "databricks.", "snowflake.", "deltalake.",
)  # fmt: skip
#: Clients of storage a backup goes to (buckets, file servers): not where a database dump leaks by accident.
STORAGE_PREFIXES = (*CLOUD_PREFIXES, "paramiko.", "pysftp.", "ftplib.", "smbclient.", "asyncssh.", "fabric.",
                    "webdav3.", "dropbox.", "boxsdk.")  # fmt: skip
#: Method names that destroy what they are called on (or what they name).
CLOUD_DESTROY_METHOD = r"^(?:delete|terminate|destroy|purge|drop|remove)(?:_|$)"
#: Remote-command methods of SSH/task libraries: their string is a shell command line.
REMOTE_SHELL_CALLS = frozenset(
    {"invoke.Context().run", "invoke.Context().sudo", "fabric.Connection().run", "fabric.Connection().sudo",
     "fabric.Connection().local", "paramiko.SSHClient().exec_command", "paramiko.client.SSHClient().exec_command"}
)  # fmt: skip
#: Cloud resources that hold others (or a machine): deleting one loses everything in it.
CLOUD_CONTAINERS = (
    "bucket", "namespace", "instance", "volume", "snapshot", "database", "db", "cluster", "project",
    "resource_group", "stack", "table", "vpc", "subnet", "key_pair", "user", "role", "secret", "function",
    "queue", "topic", "zone", "disk", "repository", "account", "vault", "server", "droplet", "repo", "group", "runs",
    "experiment", "artifact", "dataset", "catalog", "balancer", "app", "site",
)  # fmt: skip

#: Calls that do I/O or wait: an endless loop making one of them is a server or a worker, not a
#: busy loop (one making only arithmetic calls, `a = a @ a`, burns a CPU or GPU forever).
IO_CALL_NAMES = frozenset(
    {"print", "write", "writelines", "read", "readline", "readlines", "send", "sendall", "sendto", "recv",
     "recvfrom", "get", "get_nowait", "post", "put", "request", "urlopen", "run", "call", "check_call",
     "check_output", "Popen", "system", "popen", "sleep", "wait", "join", "accept", "input", "flush", "log",
     "info", "debug", "warning", "error", "exception", "emit", "publish", "poll", "select", "acquire",
     "communicate", "fetch", "execute", "commit", "step", "update", "render", "submit", "result", "next",
     "readinto", "listen", "connect", "serve_forever", "handle_request", "process", "consume", "pop",
     "subscribe", "receive", "tick", "dispatch", "fire", "trigger", "notify", "open", "append", "extend",
     "insert", "add", "remove", "discard", "clear", "set", "kill", "terminate", "exit", "quit"}
)  # fmt: skip

#: Names of environment variables that hold credentials.
CREDENTIAL_NAME = re.compile(
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|PRIVATE_KEY|CREDENTIAL|AUTH_KEY|AUTHORI[SZ]ATION_?KEY"
    r"|(?:DOOR|GATE|ALARM|MASTER|ACCESS|ENTRY)_?(?:PIN|CODE))",
    re.IGNORECASE,
)
#: Name lookups: whatever is in the name reaches every DNS server on the way (and whoever runs the zone).
DNS_LOOKUPS = frozenset(
    {"socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo", "dns.resolver.resolve",
     "dns.resolver.query", "dns.resolver.Resolver().resolve", "dns.resolver.Resolver().query"}
)  # fmt: skip
#: Programs that print a file: a command line "cat PATH" handed to a remote or container exec reads PATH.
FILE_PRINTERS = frozenset({"cat", "head", "tail", "base64", "xxd", "od", "strings", "tac", "less", "more"})
#: Method names :func:`sandlot.risk.sql.store_wipe` looks at (a cheap filter before unparsing the call).
STORE_WIPE_METHODS = frozenset({"delete_many", "remove", "drop_database", "dropDatabase", "flushall", "flushdb",
                                "delete_by_query", "delete", "recursive_delete", "drop_all", "call_command",
                                "execute_command", "flush_all", "purge", "shutdown", "ConfigResource"})
#: Libraries (and their parts) for attacking other machines: SMB/Kerberos relays and dumps, exploit tubes.
ATTACK_LIBRARIES = ("impacket.examples", "impacket.smbconnection.SMBConnection().login", "impacket.dcerpc",
                    "impacket.examples.secretsdump", "pwn.remote", "pwnlib.tubes.remote", "pwn.ssh")  # fmt: skip
#: Clients of hosted language models and the calls that return a model's answer.
MODEL_CLIENT_PREFIXES = ("openai.", "anthropic.", "ollama.", "litellm.", "cohere.", "google.generativeai.",
                         "mistralai.", "groq.", "together.", "langchain", "llama_index.")  # fmt: skip
MODEL_CALLS = frozenset({"create", "generate", "generate_content", "chat", "complete", "completion", "invoke",
                         "predict", "run", "stream"})  # fmt: skip
#: Ports of remote logins and services that must not face the internet (ssh, RDP, VNC, the Docker API, databases).
REMOTE_ACCESS_PORTS = frozenset({22, 2222, 3389, 5900, 5901, 2375, 2376, 5432, 3306, 6379, 27017, 9200})
#: Infrastructure-as-code libraries whose classes declare cloud resources.
IAC_PREFIXES = ("pulumi_", "aws_cdk.", "cdktf", "constructs.")
#: Request arguments where a credential authenticates rather than travels as data.
AUTH_KWARGS = frozenset({"headers", "auth", "cookies", "token", "api_key", "key", "credentials", "password"})

#: Programs that copy a file to another machine.
COPY_OUT_PROGRAMS = frozenset(
    {"scp", "rsync", "sftp", "curl", "wget", "nc", "ncat", "rclone", "aws", "gsutil", "azcopy"}
)

#: Clients of databases, caches, queues and container engines.
DATA_SERVICE_PREFIXES = (
    "redis.", "pymongo.", "motor.", "psycopg.", "psycopg2.", "pymysql.", "MySQLdb.", "mysql.connector.",
    "sqlite3.", "sqlalchemy.", "elasticsearch.", "cassandra.", "kafka.", "pika.", "docker.", "podman.", "pylxd.",
)  # fmt: skip
#: Programs that print what they download unless told to write a file.
DOWNLOADER_PROGRAMS = frozenset({"curl", "wget", "fetch", "aria2c", "http", "xh"})
#: Calls whose results are clients, connections or objects of the service they talk to.
CLIENT_PREFIXES = (*NETWORK_PREFIXES, *DATA_SERVICE_PREFIXES, *CLOUD_PREFIXES)
#: ORM and database-client methods that fetch rows; what columns they name says what comes back.
QUERY_METHODS = frozenset(
    {"values", "values_list", "only", "execute", "raw", "read_sql", "read_sql_query", "find", "find_one",
     "query", "select", "with_entities", "fetch", "fetchrow",
     # Neo4j's driver: `driver.execute_query(cypher)`, `session.run(cypher)`
     "execute_query", "run"}
)  # fmt: skip
#: Methods that return a whole database's content.
DATABASE_DUMP_METHODS = frozenset({"iterdump", "dumpall"})
#: Column names of credentials (password hashes, API keys, one-time-password seeds).
CREDENTIAL_COLUMN = re.compile(
    r"\b(?:password|passwd|password_hash|hashed_password|pass_hash|pwd_hash|user_pass|api_key|apikey|secret_key|"
    r"totp_secret|otp_secret|access_token|refresh_token|private_key)\b",
    re.IGNORECASE,
)
#: Methods that list a key-value store's keys by pattern (``scan_iter("session:*")``).
KEY_SCAN_METHODS = frozenset({"scan_iter", "scan", "keys", "hscan_iter", "sscan_iter", "zscan_iter"})
#: Key patterns of sessions, tokens and credentials kept in a cache.
CREDENTIAL_KEY = re.compile(r"\b(?:sess(?:ion)?s?|tokens?|api_?keys?|passw\w*|secrets?|credentials?|auth)\b", re.I)
#: Methods that empty or destroy a whole data store.
DATA_DESTROY_METHODS = frozenset({"flushall", "drop_database", "dropDatabase", "delete_index"})
#: Methods that store data (an endless loop of them fills the service).
DATA_STORE_METHODS = frozenset(
    {"set", "mset", "hset", "lpush", "rpush", "sadd", "zadd", "xadd", "insert_one", "insert_many", "execute",
     "executemany", "put_item", "put_object", "index", "produce", "send", "publish", "basic_publish", "append"}
)  # fmt: skip
#: Deserializers that run code from the data they are given.
UNSAFE_LOADERS = frozenset(
    {"pickle.loads", "pickle.load", "cPickle.loads", "marshal.loads", "dill.loads", "jsonpickle.decode",
     "yaml.load", "yaml.unsafe_load", "joblib.load", "shelve.open"}
)  # fmt: skip

#: Bytes written in one go (or by a loop of known size) that fill most sandboxes' disks.
DISK_FILL = 10 * (1 << 30)

#: Reads that return a whole credential set or session: the cloud SDK's resolved keys (access key, secret key,
#: session token) and a browser's cookies for a site (sent anywhere, a leak).
WHOLE_CREDENTIAL_READS = frozenset(
    {"boto3.Session().get_credentials", "boto3.session.Session().get_credentials",
     "boto3.Session().get_credentials().get_frozen_credentials",
     "boto3.session.Session().get_credentials().get_frozen_credentials",
     "browser_cookie3.chrome", "browser_cookie3.firefox", "browser_cookie3.edge", "browser_cookie3.brave",
     "browser_cookie3.chromium", "browser_cookie3.opera", "browser_cookie3.safari", "browser_cookie3.load",
     # Windows' Credential Manager: every saved password and token of the user
     "win32cred.CredEnumerate", "win32cred.CredRead"}
)  # fmt: skip
#: Reads from the desktop's secret stores (the user's saved passwords and tokens), and the whole credential sets.
SECRET_STORE_READS = WHOLE_CREDENTIAL_READS | frozenset(
    {"keyring.get_password", "keyring.get_credential", "secretstorage.get_all_collections",
     "secretstorage.get_default_collection", "secretstorage.get_any_collection",
     # an infrastructure stack's outputs and configuration, secrets decrypted
     "pulumi.automation.select_stack().outputs", "pulumi.automation.select_stack().get_all_config",
     "pulumi.automation.create_or_select_stack().outputs", "pulumi.automation.create_or_select_stack().get_all_config",
     "pulumi.automation.select_stack().export_stack",
     # Vault's key-value stores through hvac (one secret; in a loop, every one a listing gives)
     "hvac.Client().secrets.kv.v2.read_secret_version", "hvac.Client().secrets.kv.v1.read_secret",
     "hvac.Client().secrets.kv.read_secret_version", "hvac.Client().read",
     # the logins saved in ~/.netrc, one host's at a time
     "netrc.netrc().authenticators"}
)  # fmt: skip

#: Template engines: rendering a client's text as a template runs template code (SSTI).
TEMPLATE_RENDERERS = frozenset(
    {"flask.render_template_string", "jinja2.Template", "jinja2.Environment().from_string", "mako.template.Template",
     "django.template.Template", "tornado.template.Template"}
)  # fmt: skip
#: Responses that send a file from the server's disk.
FILE_SENDERS = frozenset({"send_file", "send_from_directory", "FileResponse", "static_file", "sendfile"})
#: Methods that register a request handler without a decorator.
ROUTE_REGISTRARS = frozenset(
    {"add_get", "add_post", "add_put", "add_delete", "add_route", "add_url_rule", "add_api_route",
     "add_websocket_route", "add_api_websocket_route", "add_view"}
)  # fmt: skip
#: Calls registering a chat bot's message handler (a local function among the arguments).
MESSAGE_HANDLER_REGISTRARS = frozenset(
    {"MessageHandler", "CommandHandler", "CallbackQueryHandler", "InlineQueryHandler", "add_event_callback",
     "add_event_handler", "register_message_handler", "register_callback_query_handler",
     "register_next_step_handler", "add_message_handler", "on_message"}
)  # fmt: skip
#: Mail client methods that return messages: every message's text (``fetch`` of headers only is not).
MAILBOX_READS = frozenset(
    {f"{cls}().{m}" for cls in ("imaplib.IMAP4", "imaplib.IMAP4_SSL") for m in ("fetch", "uid")}
    | {f"{cls}().{m}" for cls in ("poplib.POP3", "poplib.POP3_SSL") for m in ("retr", "top")}
)

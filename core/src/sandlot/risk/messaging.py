"""Message brokers and event streams: Kafka, Pulsar, NATS, ActiveMQ Artemis, RabbitMQ, Celery, SQS (shared by both
analyzers).

A broker holds work nobody has done yet. What needs a careful reviewer is what makes that work vanish or
repeat, or stops those who do it:

* consumer groups moved past their unread messages (or back to replay them), for every group at once;
* a tenant's namespaces or topics deleted one after another;
* every worker of a production Celery app shut down, or its queued tasks purged;
* a production broker flooded by a load generator with nobody consuming;
* its guards taken away: Pulsar's authentication or authorization off, anonymous clients made superusers or
  given every action on every namespace, a NATS user of the system account allowed every subject;
* every message copied out: a subscription to every subject (`>`) piped to another host, a function that posts each
  message to an outside URL; backlogs cleared and retention set to zero; every stream or queue destroyed; the
  broker's own storage (journals, ledgers, ZooKeeper's snapshots) deleted.

One consumer group's offsets previewed (``--dry-run``) and a test broker's queues purged are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk import paths
from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.text_shapes import each_item, sends_data

#: Command-line tools whose broker commands :func:`broker_command` reads.
BROKER_TOOLS = frozenset(
    {"kafka-consumer-groups", "kafka-consumer-groups.sh", "pulsar-admin", "celery", "rabbitmq-perf-test"}
)


def broker_command(name: str, args: Sequence[str], *, repeated: bool, production: bool) -> OperationRisk | None:
    """The risk of one broker command line (``repeated``: run for each item of a loop or listing;
    ``production``: the script names a production broker)."""
    if name.startswith("kafka-consumer-groups") and "--reset-offsets" in args and "--execute" in args:
        every = repeated or "--all-groups" in args
        what = "moves consumer groups' offsets (unread messages skipped or old ones replayed)"
        return OperationRisk(RiskLevel.HIGH if every or production else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             what + (" for every group" if every else ""))  # fmt: skip
    kind = next((i for i, a in enumerate(args) if a in ("namespaces", "topics", "tenants")), None)
    if name == "pulsar-admin" and kind is not None and args[kind + 1 : kind + 2] == ["delete"]:
        what = f"pulsar-admin deletes {args[kind]} with their messages"
        local = any(a.startswith(_LOCAL_ADMIN) for a in [*args, *(a.split("=", 1)[-1] for a in args)])
        if (repeated or "--force" in args or "-f" in args) and not local:
            what += " (every one a listing gives)" if repeated else " (forced)"
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
        return OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, what)
    if name == "celery" and (
        ("control" in args and "shutdown" in args) or ("purge" in args and any(a in ("-f", "--force") for a in args))
    ):
        shuts = "shutdown" in args
        what = "celery shuts down every worker of the app" if shuts else "celery purges every queued task"
        return OperationRisk(RiskLevel.HIGH if production else RiskLevel.MEDIUM, Category.PROCESS, what)
    return None


#: A broker's admin endpoint on this machine (a standalone for tests or benchmarks).
_LOCAL_ADMIN = ("http://localhost", "http://127.0.0.1", "pulsar://localhost", "pulsar://127.0.0.1")
#: A load generator for RabbitMQ pointed somewhere with producers and no consumers (messages pile up).
_PERF_TEST = re.compile(r"perf-test\b[\s\S]*--consumers\s+0\b|--consumers\s+0\b[\s\S]*perf-test\b")
_PRODUCERS = re.compile(r"--producers\s+(\d+)")
#: Offsets committed at the partitions' high watermark (the backlog skipped, as if read).
_SKIP_TO_END = re.compile(
    r"get_watermark_offsets\([\s\S]*(?:\.commit\(\s*(?:offsets\s*=|\[)|alter_consumer_group_offsets\()"
    r"|seek_to_end\([\s\S]*\.commit\("
)


def broker_text_risks(text: str, *, production: bool) -> list[OperationRisk]:
    """Brokers flooded with nobody consuming, consumer groups committed past their backlog (judged on the whole
    text; ``production``: it names a production broker)."""
    found = []
    if "perf-test" in text and _PERF_TEST.search(text):
        producers = max((int(p) for p in _PRODUCERS.findall(text)), default=0)
        if producers >= 50 or production:
            what = "floods a broker with producers and no consumers (queues grow until memory or disk runs out)"
            found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if ("watermark" in text or "seek_to_end" in text) and _SKIP_TO_END.search(text):
        what = "commits a consumer group's offsets at the end of its partitions (its unread messages are skipped)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found


def kafka_admin_risks(text: str, *, production: bool) -> list[OperationRisk]:
    """A Kafka cluster's settings changed against everyone who uses it, from a shell or a client library (judged on
    the whole text; ``production``: it names a production broker): access opened to every client or its DENY
    rules removed, data purged by retention or record deletion, clients throttled to nothing or pointed at
    another host, brokers buried under partitions, Connect's file connectors aimed at a secret or a startup file."""
    found = []

    def add(level: RiskLevel, category: Category, what: str) -> None:
        found.append(OperationRisk(level, category, what))

    purge = RiskLevel.HIGH if production else RiskLevel.MEDIUM
    access = [what for pattern, what in _KAFKA_OPEN_ACCESS if pattern.search(text)]
    if access:
        add(RiskLevel.HIGH, Category.PRIVILEGE, access[0])
    if _KAFKA_DENY_REMOVED.search(text):
        add(RiskLevel.HIGH, Category.PRIVILEGE, "removes the cluster's DENY rules (ACLs)")
    retention = [int(ms) for ms in _KAFKA_RETENTION.findall(text)]
    if retention and min(retention) <= 60_000 and _KAFKA_ALTERS.search(text):
        every = "list_topics" in text or "--all" in text
        add(RiskLevel.HIGH if every else purge, Category.FILESYSTEM,
            "sets topics' retention near zero (the brokers delete their messages)")  # fmt: skip
    if _KAFKA_DELETE_RECORDS.search(text):
        add(purge, Category.FILESYSTEM, "deletes a topic's records up to an offset (unread messages are gone)")
    rates = [int(rate) for rate in _KAFKA_BYTE_RATE.findall(text)]
    if rates and min(rates) < 1024 and "entity-default" in text:
        add(RiskLevel.HIGH, Category.RESOURCE, f"throttles every client of the cluster to {min(rates)} bytes a second")
    # (`ConfigEntry("advertised.listeners", f"PLAINTEXT://{relay}:…")`: the address may be held in a variable)
    advertised = _KAFKA_ADVERTISED.findall(text) or (_BARE_ADDRESS.findall(text) if "advertised.listeners" in text
                                                     else [])  # fmt: skip
    relay = next((ip for ip in advertised if outside_address(ip)), None)
    if relay is not None:
        add(RiskLevel.HIGH, Category.NETWORK, f"advertises the brokers at {relay} (every client's traffic goes there)")
    partitions = max((int(n) for n in _KAFKA_PARTITIONS.findall(text)), default=0)
    if partitions >= 10 * MASS_COUNT:
        add(RiskLevel.HIGH, Category.RESOURCE,
            f"creates topics of {partitions:,} partitions (brokers' memory and file handles)")  # fmt: skip
    flood = _KAFKA_PERF_RECORDS.search(text)
    if flood and "--throughput -1" in text and (production or int(flood.group(1)) >= 10_000_000):
        add(RiskLevel.HIGH, Category.RESOURCE, "floods a topic with an unthrottled load test (brokers' disks, network)")
    for kind, target in _KAFKA_FILE_CONNECTOR.findall(text):
        info = paths.classify(target)
        if kind == "Sink" and (info.persistence or info.privilege or info.kind is paths.PathKind.SYSTEM):
            add(RiskLevel.HIGH, Category.PERSISTENCE,
                f"has a Connect file sink write a topic's messages into {paths.describe(info)}")  # fmt: skip
        elif kind == "Source" and info.secret:
            add(RiskLevel.HIGH, Category.EXFILTRATION,
                f"has a Connect file source publish {paths.describe(info)} to a topic")  # fmt: skip
    return found


#: Settings and grants that let any client do anything: ACLs for every principal, the authorizer switched off.
_KAFKA_OPEN_ACCESS = (
    (re.compile(r"allow\\?\.everyone\\?\.if\\?\.no\\?\.acl\\?\.found\s*=\s*true"),
     "lets every client use whatever has no ACL (allow.everyone.if.no.acl.found)"),
    (re.compile(r"super\\?\.users\s*=[^\n]*User:(?:ANONYMOUS|\*)"),
     "makes anonymous clients super users of the cluster"),
    (re.compile(r"super\\?\.users=[^\n]*\\1[;,]User:"), "adds a user to the cluster's super users"),
    (re.compile(r"authorizer\\?\.class\\?\.name=/#"),
     "switches the cluster's authorizer off (every ACL ignored)"),
    (re.compile(r"User:\*[\s\S]*AclPermissionType\.ALLOW[\s\S]*create_acls|create_acls[\s\S]*User:\*"),
     "grants every user (User:*) access to the cluster"),
)
_KAFKA_DENY_REMOVED = re.compile(
    r"delete_acls\([\s\S]*DENY|AclPermissionType\.DENY[\s\S]*delete_acls\("
    r"|kafka-acls(?:\.sh)?\b[^\n]*--remove\b[^\n]*--deny-principal"
)
_KAFKA_RETENTION = re.compile(r"retention\.ms[\"']?\s*[:=,]\s*[\"']?(\d+)")
_KAFKA_ALTERS = re.compile(r"alter_configs\(|kafka-configs(?:\.sh)?\b[\s\S]{0,300}?--alter")
_KAFKA_DELETE_RECORDS = re.compile(r"kafka-delete-records\b|\.delete_records\(")
_KAFKA_BYTE_RATE = re.compile(r"(?:producer|consumer)_byte_rate=(\d+)")
_KAFKA_ADVERTISED = re.compile(r"advertised\.listeners[^\n]*?://(\d{1,3}(?:\.\d{1,3}){3})")
_BARE_ADDRESS = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}\b")
_KAFKA_PARTITIONS = re.compile(r"(?:num_partitions\s*=\s*|--partitions\s+)(\d+)")
_KAFKA_PERF_RECORDS = re.compile(r"kafka-producer-perf-test[\s\S]*--num-records\s+(\d+)")
_KAFKA_FILE_CONNECTOR = re.compile(r"FileStream(Sink|Source)Connector[\s\S]*?[\"']file[\"']\s*[:=]\s*[\"']([^\"']+)")


#: Words without which no rule of :func:`broker_admin_risks` can match.
_ADMIN_WORDS = GateWords("authenticationEnabled", "authorizationEnabled", "anonymousUserRole", "anonymous",
                         "allow-pubsub", "sub '>'", 'sub ">"', "clearBacklog", "retentionTimeInMinutes",
                         "destroyQueue", "delete_stream", "stream rm", "pulsar-admin", "data/journal",
                         "bookkeeper", "version-2")  # fmt: skip
_GUARDS_OFF = re.compile(
    r"\b(?:authenticationEnabled|authorizationEnabled)\s*=\s*false\b|\banonymousUserRole\s*=\s*superuser\b", re.I
)
#: Pulsar's namespace permissions given to its anonymous role (through the admin API or pulsar-admin).
_ANONYMOUS_GRANTED = re.compile(
    r"/namespaces/[\s\S]*/permissions/[\s\S]*[\"']anonymous[\"']|[\"']anonymous[\"'][\s\S]*/namespaces/[\s\S]*/permissions/"
    r"|grant-permission\b[^\n]*--role\s+anonymous\b"
)
_EVERY_SUBJECT_USER = re.compile(r"\bnsc\s+add\s+user\b[^\n]*--account\s+SYS\b[^\n]*--allow-pubsub\s+['\"]?>")
_EVERY_SUBJECT_OUT = re.compile(r"\bnats\b[^\n|]*\bsub\s+['\"]>['\"][^\n|]*\|\s*(?:nc|ncat|socat|curl)\b")
_BACKLOG_CLEARED = re.compile(r"/clearBacklog\b|retentionTimeInMinutes\W+0\b|\bclear-backlog\b")
_EVERY_QUEUE_DESTROYED = re.compile(r"destroyQueue\(|\.delete_stream\(|\bstream\s+rm\b")
_FUNCTION_POSTS_OUT = re.compile(r"\bfunctions\W+create\b")
_BROKER_STORAGE = re.compile(
    r"(?:rmtree|unlink|\brm\s+-\w*|-delete\b)[\s\S]{0,200}?(?:data/(?:journal|paging|bindings|large-messages)|bookkeeper"
    r"|zookeeper/version-2)|(?:data/(?:journal|paging|bindings|large-messages)|bookkeeper|zookeeper/version-2)"
    r"[\s\S]{0,300}?(?:rmtree\(|\.unlink\(\)|\s-delete\b)"
)


def broker_admin_risks(text: str) -> list[OperationRisk]:
    """Pulsar, NATS and ActiveMQ Artemis stripped of their guards, copied out or emptied (judged on the whole
    text)."""
    if not _ADMIN_WORDS.any_in(text):
        return []
    found = []
    if _GUARDS_OFF.search(text) or ("anonymous" in text and _ANONYMOUS_GRANTED.search(text)) or (
        "allow-pubsub" in text and _EVERY_SUBJECT_USER.search(text)
    ):
        what = ("turns a broker's authentication or authorization off, makes anonymous clients superusers or gives "
                "them every action, or lets a system-account user use every subject")  # fmt: skip
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    copied = "sub" in text and _EVERY_SUBJECT_OUT.search(text)
    if copied or ("functions" in text and _FUNCTION_POSTS_OUT.search(text) and sends_data(text)):
        what = "copies every message a broker carries to another host (a subscription to `>`, a function that posts)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what))
    emptied = _BACKLOG_CLEARED.search(text) or _EVERY_QUEUE_DESTROYED.search(text)
    if (emptied and each_item(text)) or _BROKER_STORAGE.search(text):
        what = ("clears backlogs, sets retention to zero or destroys every stream or queue a listing gives, or deletes "
                "the broker's own storage (journals, ledgers, ZooKeeper's snapshots)")  # fmt: skip
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    return found

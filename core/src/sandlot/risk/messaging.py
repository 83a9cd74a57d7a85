"""Message brokers and event streams: Kafka, Pulsar, RabbitMQ, Celery, SQS (shared by both analyzers).

A broker holds work nobody has done yet. What needs a careful reviewer is what makes that work vanish or
repeat, or stops those who do it:

* consumer groups moved past their unread messages (or back to replay them), for every group at once;
* a tenant's namespaces or topics deleted one after another;
* every worker of a production Celery app shut down, or its queued tasks purged;
* a production broker flooded by a load generator with nobody consuming.

One consumer group's offsets previewed (``--dry-run``) and a test broker's queues purged are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel

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
        if repeated or "--force" in args or "-f" in args:
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


#: A load generator for RabbitMQ pointed somewhere with producers and no consumers (messages pile up).
_PERF_TEST = re.compile(r"perf-test\b[\s\S]*--consumers\s+0\b|--consumers\s+0\b[\s\S]*perf-test\b")
_PRODUCERS = re.compile(r"--producers\s+(\d+)")
#: Offsets committed at the partitions' high watermark (the backlog skipped, as if read).
_SKIP_TO_END = re.compile(
    r"get_watermark_offsets\([\s\S]*\.commit\(\s*(?:offsets\s*=|\[)|seek_to_end\([\s\S]*\.commit\("
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

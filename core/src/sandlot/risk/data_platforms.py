"""Command-line tools of data platforms: HDFS, Kafka, BigQuery, YARN, Databricks, Airflow (shared by both analyzers).

Their harm is spelled in their own words: ``hdfs dfs -rm -r -skipTrash /user/hive/warehouse/*``
empties a warehouse, ``kafka-topics --delete --topic "$t"`` over a listing deletes every topic,
``yarn application -kill`` over a listing stops everyone's jobs, ``airflow connections export -``
prints every stored password. :func:`platform_risk` grades one command; :func:`prints_secrets` and
:func:`prints_shared_code` say what its output is.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from sandlot.risk.control_plane import MASS_COUNT, OperationRisk
from sandlot.risk.destinations import personal_account
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.paths import HOLE
from sandlot.risk.shell_words import option_values
from sandlot.risk.text_shapes import each_item

#: The programs :func:`platform_risk` knows.
PLATFORM_TOOLS = frozenset(
    {"hdfs", "hadoop", "kafka-topics", "kafka-topics.sh", "kafka-acls", "kafka-acls.sh", "bq", "yarn", "databricks",
     "spark-submit", "dbt"}
)


def platform_risk(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """The risk of data-platform command ``name args``; ``repeated``: it runs once per item of a listing
    (a loop, xargs)."""
    words = list(args)
    joined = " ".join(words)
    if name in ("hdfs", "hadoop") and any(w in ("-rm", "-rmr") for w in words):
        targets = [w for w in words if w.startswith("/") or "://" in w]
        recursive = "-rmr" in words or any(re.fullmatch(r"-[rRf]*[rR][rRf]*", w) for w in words)
        shallow = any(len([c for c in t.split("://")[-1].split("/") if c]) <= 3 or "*" in t for t in targets)
        # `/user/$USER/tmp/job_staging_*`: one's own scratch space, not the cluster's data
        scratch = bool(targets) and all(
            re.search(r"/(?:tmp|\.staging|staging|scratch|\.sparkStaging|\.Trash)/", t) for t in targets
        )
        if recursive and ("-skipTrash" in words or shallow) and not scratch:
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 f"{name} deletes a whole HDFS tree" + (" bypassing the trash" if "-skipTrash" in words
                                                                        else ""))  # fmt: skip
    if name in ("hdfs", "hadoop"):
        risk = _hdfs_admin_risk(words, repeated=repeated)
        if risk is not None:
            return risk
    if name in ("kafka-topics", "kafka-topics.sh") and "--delete" in words:
        topics = [words[i + 1] for i, w in enumerate(words[:-1]) if w == "--topic"]
        every = repeated or any(HOLE in t or "*" in t or ".*" in t for t in topics)
        level = RiskLevel.HIGH if every else RiskLevel.MEDIUM
        return OperationRisk(level, Category.FILESYSTEM, "deletes " + ("every topic listed" if every else "a topic"))
    if name in ("kafka-acls", "kafka-acls.sh") and "--add" in words and re.search(r"User:\*", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "lets every user (User:*) use the cluster's topics")
    recursive = any(re.fullmatch(r"-[rf]*r[rf]*", w) or w == "--recursive" for w in words)
    if name in ("spark-submit", "pyspark", "spark-shell") and any(
        re.match(r"https?://", w)
        for w in [*words[-1:], *",".join(option_values(words, "--py-files", "--jars", "--files")).split(",")]
    ):
        what = f"{name} runs code (an application or its libraries) fetched from a web address"
        return OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)
    if name == "dbt" and words[:1] == ["run-operation"] and len(words) > 1 and re.search(
        r"drop|truncate|delete|purge", words[1], re.IGNORECASE
    ) and any(t in ("prod", "production", "prd") for t in option_values(words, "--target", "-t")):
        what = f"dbt runs the macro {words[1]} against production (drops or empties its data)"
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)
    if name == "bq" and words[:1] == ["extract"] and any(personal_account(w) for w in words):
        return OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                             "bq extract copies a table into a personal bucket")  # fmt: skip
    if name == "bq" and words[:1] == ["rm"] and any(w in ("-d", "--dataset") for w in words) and recursive:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "bq rm -r deletes a dataset with all its tables")
    if name == "yarn" and "-kill" in words and (repeated or "-appStates" in words):
        return OperationRisk(
            RiskLevel.HIGH, Category.PROCESS, "kills every application a listing gives (everyone's jobs)"
        )
    if name == "databricks" and "create" in words:
        workers = cluster_workers(joined)
        if workers >= MASS_COUNT:
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE, f"starts a cluster of {workers} workers")
    return None


def _hdfs_admin_risk(words: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """HDFS administration: the NameNode formatted, permissions opened on the whole namespace, quotas that stop
    every write, NameNodes forced to standby, endless input written with high replication."""
    if words[:1] == ["namenode"] and "-format" in words:
        return OperationRisk(RiskLevel.CRITICAL, Category.FILESYSTEM,
                             "formats the HDFS NameNode (the file system's metadata: every file is lost)")  # fmt: skip
    if words[:1] == ["dfs"] and "-chmod" in words and any(w in ("-R", "-r") for w in words):
        mode = words[words.index("-chmod") + 1 :]
        modes = [m for m in mode if not m.startswith("-")][:2]
        if modes and re.fullmatch(r"0?[0-7]?77[67]|a\+rwx|o\+w", modes[0]) and any(
            len([c for c in t.split("://")[-1].split("/") if c]) <= 1 for t in modes[1:]
        ):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "lets everyone write a whole HDFS tree (chmod -R 777 near the root)")  # fmt: skip
    if words[:1] == ["dfsadmin"] and "-setSpaceQuota" in words:
        quota = words[words.index("-setSpaceQuota") + 1 :][:1]
        if quota and re.fullmatch(r"\d{1,3}[bk]?", quota[0]) and repeated:
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                 "sets a near-zero space quota on every folder a listing gives (no one can write)")
    if words[:1] == ["haadmin"] and any(w in ("-transitionToStandby", "-failover") for w in words) and (
        "--forcemanual" in words or repeated
    ):
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                             "forces HDFS NameNodes to standby (the file system stops serving)")  # fmt: skip
    if words[:1] == ["dfs"] and any(w in ("-put", "-appendToFile") for w in words) and "-" in words and any(
        re.search(r"dfs\.replication=(?:[4-9]|\d{2,})", w) for w in words
    ):
        return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                             "writes standard input into HDFS with a high replication (the cluster's disks fill)")
    return None


#: Hadoop's impersonation opened: a service may act as any user from any host (`hadoop.proxyuser.x.users = *`).
_PROXYUSER = re.compile(r"hadoop\.proxyuser\.[\w.-]+\.(?:users|groups|hosts)")
_ANY_VALUE = re.compile(
    r"<value>\s*\*\s*</value>|\.text\s*=\s*[\"']\*[\"']|[=:]\s*[\"']?\*[\"']?\s*(?:$|[,}\n])|-v\s+[\"']?\*"
)
#: Kerberos switched off for the whole cluster (anyone may claim to be any user, `hdfs` included).
_SIMPLE_AUTH = re.compile(r"hadoop\.security\.authentication[\s\S]{0,120}?\bsimple\b")
#: A Ranger policy for everyone (`public`) on every database, table or path.
_RANGER_EVERYONE = re.compile(r"[\"']groups[\"']\s*:\s*\[\s*[\"']public[\"']")
_RANGER_EVERYTHING = re.compile(r"[\"']values[\"']\s*:\s*\[\s*[\"'](?:\*|/)[\"']\s*\]")
#: YARN applications killed through the ResourceManager's REST API.
_YARN_KILL = re.compile(r"/apps/[^\n]*?/state[\s\S]{0,120}?[\"']state[\"']\s*:\s*[\"']KILLED")


def data_platform_text_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a Hadoop cluster through its settings and REST APIs."""
    found = []
    if "proxyuser" in text and _PROXYUSER.search(text) and _ANY_VALUE.search(text):
        what = "lets a service impersonate any user from any host (Hadoop proxyuser set to *)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "simple" in text and _SIMPLE_AUTH.search(text):
        what = "switches a Hadoop cluster from Kerberos to simple authentication (anyone may claim to be hdfs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "public" in text and _RANGER_EVERYONE.search(text) and _RANGER_EVERYTHING.search(text):
        what = "gives everyone (Ranger's public group) access to every database, table or path"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if "KILLED" in text and _YARN_KILL.search(text) and each_item(text):
        what = "kills every YARN application a listing gives (everyone's jobs)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    return found


def cluster_workers(text: str) -> int:
    """The most workers a JSON cluster spec in ``text`` asks for (``num_workers``, autoscale ``max_workers``)."""
    found = [int(n) for n in re.findall(r"\"(?:num_workers|max_workers)\"\s*:\s*(\d+)", text)]
    if not found:
        try:
            spec = json.loads(text[text.index("{") : text.rindex("}") + 1])
        except ValueError:
            return 0
        if isinstance(spec, dict):
            found = [v for k, v in spec.items() if k in ("num_workers", "max_workers") and isinstance(v, int)]
    return max(found, default=0)


def prints_secrets(name: str, args: Sequence[str]) -> bool:
    """``airflow connections export|get``, ``airflow variables export``: every stored password, in clear."""
    return name == "airflow" and (
        (args[:1] == ["connections"] and any(a in ("export", "get") for a in args[1:2]))
        or args[:2] == ["variables", "export"]
    )


def prints_shared_code(name: str, args: Sequence[str]) -> bool:
    """A value from a store other people edit (an Airflow Variable, a Consul or etcd key): run as code, it is
    code anyone with access to that store chose."""
    return (
        (name == "airflow" and args[:2] == ["variables", "get"])
        or (name == "consul" and args[:2] == ["kv", "get"])
        or (name == "etcdctl" and args[:1] == ["get"])
    )

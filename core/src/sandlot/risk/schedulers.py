"""Batch schedulers and storage of shared clusters: Slurm, PBS/Torque, LSF, HTCondor, Lustre, Spectrum Scale (the
command rules used by the shell analyzer, the whole-text rules by both).

A cluster is shared by everyone with an account on it, so what needs a careful reviewer is what
reaches past one's own jobs:

* scheduler administrators made (``sacctmgr modify user … set adminlevel=Administrator``);
* the scheduler's daemons stopped, every node (or one a listing gives) taken out of service;
* other people's jobs cancelled (``scancel -p gpu``, ``scancel -u alice``, ``qdel all``, ``bkill -u all 0``);
* jobs submitted in an endless loop or by the thousand at once (the queue and everyone else's share taken);
* every Temporal workflow terminated or its namespaces deleted, Prefect's secret blocks sent away;
* every HTCondor job removed or every daemon stopped, parallel file systems unmounted everywhere, filesets deleted,
  every quota shrunk to nothing, Lustre told to trust every client as admin, scheduler hooks that post job details
  outside.

One's own jobs (``scancel 1234``, ``scancel -u $USER``, ``scancel --me``) and one node drained for
maintenance are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.paths import HOLE
from sandlot.risk.text_shapes import each_item, sends_data

#: Command-line tools of batch schedulers that this module reads.
SCHEDULER_TOOLS = frozenset({"sacctmgr", "scontrol", "scancel", "sbatch", "qsub", "bsub", "qdel", "bkill"})
#: Tools that submit a job.
SUBMITTERS = frozenset({"sbatch", "qsub", "bsub"})

_ADMIN_LEVEL = re.compile(r"^adminlevel=(?:admin(?:istrator)?|operator)$", re.IGNORECASE)
_OUT_OF_SERVICE = re.compile(r"^state=(?:down|drain|fail|power_down|inactive)$", re.IGNORECASE)
#: Cancel options that pick jobs by something other than their id (every job that matches, anyone's).
_CANCEL_FILTERS = ("-p", "--partition", "-t", "--state", "-A", "--account", "-w", "--nodelist", "-q", "--qos",
                   "-R", "--reservation")  # fmt: skip


def scheduler_command(
    name: str, args: Sequence[str], *, repeated: bool = False, own: bool = False
) -> OperationRisk | None:
    """The risk of one scheduler command line (``repeated``: run for every item of a loop or listing;
    ``own``: the command line names its own user, ``-u $USER``)."""
    lowered = [a.lower() for a in args]
    if name == "sacctmgr" and any(_ADMIN_LEVEL.match(a) for a in args):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "sacctmgr makes a user an administrator of the "
                             "scheduler (every account, job and limit of the cluster)")  # fmt: skip
    if name == "scontrol":
        if lowered[:1] in (["shutdown"], ["takeover"]):
            what = "scontrol stops the cluster's scheduler daemons (every user's work stalls)"
            return OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)
        nodes = [a.split("=", 1)[1] for a in args if a.lower().startswith(("nodename=", "partitionname="))]
        if lowered[:1] == ["update"] and nodes and any(_OUT_OF_SERVICE.match(a) for a in args):
            every = repeated or any(n.upper() == "ALL" or HOLE in n or "[" in n or "," in n for n in nodes)
            if every:
                what = "scontrol takes every node (or partition) a listing gives out of service"
                return OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)
            return OperationRisk(RiskLevel.MEDIUM, Category.PROCESS, "scontrol takes a node or partition offline")
    if name in ("scancel", "qdel", "bkill"):
        return _cancel(name, args, own=own)
    tasks = re.search(r"--array[= ](\d+)-(\d+)", " ".join(args)) if name == "sbatch" else None
    if tasks and int(tasks.group(2)) - int(tasks.group(1)) + 1 >= 1000:
        return OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "sbatch submits thousands of jobs at once "
                             "(floods the shared queue)")  # fmt: skip
    return None


#: PBS's qselect or qstat listing every user's jobs (not `-u $USER`).
_EVERYONES_PBS_QUEUE = re.compile(r"\b(?:qselect|qstat)\b(?![^\n]*(?:-u\b|-N\b))")
#: squeue listing the whole queue: not limited to one's own jobs (`-u $USER`, `--me`) or to jobs by name or id.
_EVERYONES_QUEUE = re.compile(r"\bsqueue\b(?![^\n]*(?:-u\b|--user\b|--me\b|-n\b|--name\b|-j\b|--jobs\b))")


def cancels_listed_jobs(name: str, args: Sequence[str], text: str, *, repeated: bool) -> OperationRisk | None:
    """``scancel "$id"`` (or PBS's ``qdel``) run for each job of a queue listing that is not limited to one's own
    user (``text`` is the whole script): everyone's jobs go."""
    if name not in ("scancel", "qdel") or not repeated or not any(HOLE in a for a in args):
        return None
    listing = _EVERYONES_QUEUE if name == "scancel" else _EVERYONES_PBS_QUEUE
    if listing.search(text) is None:
        return None
    return OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                         f"{name} cancels the jobs of a queue listing that is not limited to one's own (other "
                         "users' jobs)")  # fmt: skip


def endless_submission(name: str) -> OperationRisk | None:
    """A job submitted in a loop that never ends: the queue (and everyone's share of the cluster) taken."""
    if name not in SUBMITTERS:
        return None
    return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                         f"{name} submits jobs in an endless loop (takes the cluster from everyone else)")  # fmt: skip


def _cancel(name: str, args: Sequence[str], *, own: bool) -> OperationRisk | None:
    """Jobs cancelled by user, partition, state or ``all``: other people's, unless the user is oneself."""
    users = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-u", "--user")]
    users += [a.split("=", 1)[1] for a in args if a.startswith("--user=")]
    filtered = any(a.startswith(_CANCEL_FILTERS) for a in args)
    if "--me" in args or own:
        return None
    if "all" in users or (name == "qdel" and "all" in args):
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, f"{name} cancels every user's jobs")
    if users or filtered:
        whose = f"{users[0]}'s" if users and HOLE not in users[0] else "other users'"
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, f"{name} cancels {whose} jobs (not only one's own)")
    return None


#: Words without which no rule of :func:`hpc_text_risks` can match.
_HPC_WORDS = GateWords("JobAction.Remove", "condor_rm", "condor_off", "mmshutdown", "mmumount", "queue ", ".submit(",
                       "import hook", "nodemap", "setquota", "mmdelfileset", "mmdelfs", "ALLOW_")  # fmt: skip
_EVERY_JOB_REMOVED = re.compile(
    r"JobAction\.Remove\s*,\s*[\"']true[\"']|\bcondor_rm\b[^\n]*(?:-all\b|-constraint\s+['\"]?true)"
)
_EVERY_DAEMON_STOPPED = re.compile(
    r"\bcondor_off\b[^\n]*-all\b|\bmmshutdown[\"',\s]+-a\b|\bmmumount[\"',\s]+all[\"',\s]+-a\b"
)
_JOB_FLOOD = re.compile(r"^\s*queue\s+(\d{5,})\s*$|\.submit\([^)]*\bcount\s*=\s*(\d{4,})", re.MULTILINE)
_NODEMAP_OPENED = re.compile(
    r"\bnodemap_modify\b[^\n]*--property\s+(?:admin|trusted)\s+--value\s+1\b|\bnodemap_activate\s+0\b"
)
_TINY_QUOTA = re.compile(r"(?:setquota|mmsetquota)\b[^\n]*?(?:\b[1-9]k\b|[\"']1[kK][\"']|\b1M:1M\b|--files\s+\d{1,2}:)")
_FILESETS_DELETED = re.compile(r"\bmmdelfileset\b|\bmmdelfs\b")
#: HTCondor letting every host write to the pool or administer it (`ALLOW_ADMINISTRATOR = *`).
_POOL_OPENED = re.compile(r"^\s*[\"']?ALLOW_(?:WRITE|ADMINISTRATOR|DAEMON|NEGOTIATOR|CONFIG)\s*=\s*\*\s*(?:$|[\"'])",
                          re.MULTILINE)


def hpc_text_risks(text: str) -> list[OperationRisk]:
    """HTCondor pools, PBS servers and parallel file systems (Lustre, Spectrum Scale) emptied, stopped, flooded or
    opened up (judged on the whole text)."""
    if not _HPC_WORDS.any_in(text):
        return []
    found = []
    if _EVERY_JOB_REMOVED.search(text) or _EVERY_DAEMON_STOPPED.search(text):
        what = "removes every job of the pool, or stops every node's daemons or file system mounts"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    flood = max((int(a or b) for a, b in _JOB_FLOOD.findall(text)), default=0)
    if flood >= 10_000 or (flood >= 1_000 and each_item(text)):
        what = f"submits {flood:,} or more jobs (floods the shared queue)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "import hook" in text and sends_data(text):
        what = "installs a scheduler hook that sends every job's details to an address on the internet"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what))
    if "nodemap" in text and _NODEMAP_OPENED.search(text):
        what = "makes Lustre trust every client as admin (root squashing and identity mapping off)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if ("setquota" in text and _TINY_QUOTA.search(text) and each_item(text)) or (
        _FILESETS_DELETED.search(text) and each_item(text)
    ):
        what = "shrinks every user's or fileset's quota to nothing, or deletes every fileset a listing gives"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "ALLOW_" in text and _POOL_OPENED.search(text):
        what = "lets every host write to an HTCondor pool or administer it (jobs and daemons anyone can control)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found



#: Words without which no rule of :func:`workflow_engine_risks` can match.
_WORKFLOW_WORDS = GateWords("temporal", "terminate", "delete_namespace", "include_secrets")
_BATCH_TERMINATE = re.compile(r"\btemporal\s+workflow\s+terminate\b(?:[^\n]|\\\n)*--query\b")
_TERMINATED_EACH = re.compile(r"\blist_workflows\([\s\S]{0,300}?\.terminate\(")
_NAMESPACE_DELETED = re.compile(
    r"\btemporal\s+operator\s+namespace\s+delete\b|[\"']namespace[\"']\s*,\s*[\"']delete[\"']|\.delete_namespace\("
)
_SECRETS_READ = re.compile(r"\bread_block_documents\([^)]*include_secrets\s*=\s*True")


def workflow_engine_risks(text: str) -> list[OperationRisk]:
    """Workflow orchestrators (Temporal, Prefect) emptied or read out (judged on the whole text): every running
    workflow terminated, namespaces deleted, every stored secret block sent away."""
    if not _WORKFLOW_WORDS.any_in(text):
        return []
    found = []
    if _BATCH_TERMINATE.search(text) or _TERMINATED_EACH.search(text):
        what = "terminates every workflow a query or a listing gives (their work stops half done)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, what))
    if _NAMESPACE_DELETED.search(text) and ("prod" in text or each_item(text)):
        what = "deletes a production Temporal namespace, or every namespace a listing gives (workflows and history)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _SECRETS_READ.search(text) and sends_data(text):
        what = "reads every stored block with its secrets and sends them away"
        found.append(OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what))
    return found

"""Batch schedulers of shared clusters: Slurm, PBS/Torque, LSF (used by the shell analyzer).

A cluster is shared by everyone with an account on it, so what needs a careful reviewer is what
reaches past one's own jobs:

* scheduler administrators made (``sacctmgr modify user … set adminlevel=Administrator``);
* the scheduler's daemons stopped, every node (or one a listing gives) taken out of service;
* other people's jobs cancelled (``scancel -p gpu``, ``scancel -u alice``, ``qdel all``, ``bkill -u all 0``);
* jobs submitted in an endless loop or by the thousand at once (the queue and everyone else's share taken).

One's own jobs (``scancel 1234``, ``scancel -u $USER``, ``scancel --me``) and one node drained for
maintenance are routine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.paths import HOLE

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


#: squeue listing the whole queue: not limited to one's own jobs (`-u $USER`, `--me`) or to jobs by name or id.
_EVERYONES_QUEUE = re.compile(r"\bsqueue\b(?![^\n]*(?:-u\b|--user\b|--me\b|-n\b|--name\b|-j\b|--jobs\b))")


def cancels_listed_jobs(name: str, args: Sequence[str], text: str, *, repeated: bool) -> OperationRisk | None:
    """``scancel "$id"`` run for each job of a queue listing that is not limited to one's own user (``text`` is
    the whole script): everyone's jobs go."""
    if name != "scancel" or not repeated or not any(HOLE in a for a in args) or "squeue" not in text:
        return None
    if _EVERYONES_QUEUE.search(text) is None:
        return None
    return OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                         "scancel cancels the jobs of a queue listing that is not limited to one's own (other "
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

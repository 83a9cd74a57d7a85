"""Virtual machines and their hosts: libvirt, QEMU, Proxmox, vSphere, VirtualBox (shared by both analyzers).

A hypervisor's tools say in their own words what would need a careful reviewer:

* machines and their storage destroyed, reverted or purged (``virsh undefine --remove-all-storage``,
  ``qm destroy --purge``, ``govc snapshot.remove '*'``, ``vol.wipe()``), every one a listing gives;
* consoles and management opened to the network: VNC or SPICE on every interface without a password,
  the QEMU monitor on a TCP port (full control of the guest), libvirt's TCP listener without auth;
* the host handed to a guest: its disks as raw block devices, its root as a shared folder;
* a guest's memory or disks copied out (``virsh dump``, ``govc export.ovf``): everything the machine held;
* administrators planted on vCenter, SSH turned on across ESXi hosts, firewalls of a cluster turned off;
* golden images given someone's key or an extra root account;
* ESXi hosts opened up: SSH and the ESXi shell turned on, the firewall off, unsigned VIBs accepted,
  local administrators added (``esxcli``, ``vim-cmd``), Proxmox's Administrator role granted on ``/``;
* the host exhausted with preallocated multi-terabyte disks or hundreds of large guests.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.destinations import outside_address
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.shell_words import options
from sandlot.risk.text_shapes import any_loop as any_listing

#: Command-line tools of hypervisors and VM managers whose words this module reads.
HYPERVISOR_TOOLS = frozenset(
    {"virsh", "qm", "pct", "pvesh", "govc", "VBoxManage", "vboxmanage", "qemu-img", "virt-customize",
     "virt-sysprep", "pve-firewall", "prlctl", "vmrun", "vim-cmd", "esxcli", "pveum"}
)  # fmt: skip
#: QEMU's emulators and KVM launchers.
QEMU_SYSTEMS = frozenset(
    {"qemu-system-x86_64", "qemu-system-aarch64", "qemu-system-i386", "qemu-system-arm", "qemu-system-riscv64",
     "qemu-kvm", "kvm"}
)  # fmt: skip
#: Libraries (lower case) that mark Python code as driving a hypervisor (a cheap gate before per-call checks).
HYPERVISOR_LIBRARY_NAMES = GateWords("qemu", "libvirt", "pyvmomi", "pyvim", "proxmox", "vboxapi", "virtualbox",
                                              ignore_case=True)

_EVERYWHERE = r"(?:0\.0\.0\.0|\[?::\]?)"
_CONSOLE = re.compile(
    r"-vnc\s+[\"']?(?:" + _EVERYWHERE + r")?:\d+(?![^\s]*password)"  # qemu -vnc :1 listens on every interface
    r"|-spice\s+\S*addr=" + _EVERYWHERE + r"\S*disable-ticketing"
    r"|-spice\s+\S*disable-ticketing\S*addr=" + _EVERYWHERE + r""
    r"|<graphics[^>]*listen=[\"']" + _EVERYWHERE + r"[\"'](?![^>]*passwd)"
)
_MONITOR = re.compile(
    r"-(?:monitor|qmp|serial)\s+[\"']?(?:tcp|telnet):(?:" + _EVERYWHERE + r")?:\d+"
    r"|\bauth_tcp\s*=\s*[\"']?none|\blisten_tcp\s*=\s*1[\s\S]*\bauth_tcp\s*=\s*[\"']?none"
)
_HOST_DISK = re.compile(
    r"(?:-drive\s+\S*file=|-hd[a-d]\s+|<source\s+dev=[\"']|attach-disk\s+\S+\s+[\"']?)"
    r"/dev/(?:sd[a-z]|nvme\d|vd[a-z]|xvd[a-z]|mapper/|disk/|md\d|dm-\d|\$|\x00)"
    r"|-virtfs\s+local,(?:\S*,)?path=/(?:,|\s|$)|<source\s+dir=[\"']/[\"']"
)
_ESXI_SSH = re.compile(r"TSM-SSH|TSM\b")
#: Python methods of libvirt, pyVmomi and proxmoxer that destroy machines, snapshots or storage.
DESTROY_METHODS = frozenset(
    {"undefine", "undefineFlags", "revertToSnapshot", "wipe", "wipePattern", "RemoveAllSnapshots_Task",
     "Destroy_Task", "DeleteDatastoreFile_Task", "DeleteVirtualDisk_Task", "RevertToSnapshot_Task",
     "RevertToCurrentSnapshot_Task", "RemoveSnapshot_Task"}
)  # fmt: skip
#: Methods that are only destructive when a listing feeds them (a single guest stopped or deleted in a lab
#: is ordinary): libvirt's destroy (a hard power-off), storage deletes, proxmoxer's delete.
VM_DESTROY_WHEN_REPEATED = frozenset({"destroy", "destroyFlags", "delete", "PowerOffVM_Task", "ResetVM_Task"})


def hypervisor_text_risk(text: str) -> OperationRisk | None:
    """A command line, a domain XML or code spelling a console open to everyone, the QEMU monitor on the
    network, or the host's disks or root handed to a guest."""
    if _MONITOR.search(text):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                             "opens a VM's monitor or libvirt's management to the network without authentication "
                             "(full control of the guests)")  # fmt: skip
    if _CONSOLE.search(text) and ("graphics" in text or "-vnc" in text or "-spice" in text):
        what = "puts a VM's console (VNC/SPICE) on every network interface without a password"
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)
    if _HOST_DISK.search(text):
        what = "hands the host's own disk or root file system to a guest (the guest can rewrite the host)"
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
    return None


def hypervisor_command(name: str, args: Sequence[str], *, repeated: bool) -> OperationRisk | None:
    """What one hypervisor command does that needs approval; ``repeated``: it runs once per listed item."""
    flags, words = options(
        args, frozenset({"-vm", "-host", "-role", "-principal", "-o", "-f", "-O", "-b", "-F", "-c", "--connect"})
    )
    joined = " ".join(args)
    text_risk = hypervisor_text_risk(f"{name} {joined}")
    if text_risk is not None:
        return text_risk
    verb = words[0] if words else ""
    if name == "virsh":
        # (`virsh -c qemu:///session …`: the user's own unprivileged machines, a test VM torn down)
        own = "qemu:///session" in args and not repeated
        if verb == "undefine" and ({"--remove-all-storage", "--wipe-storage"} & flags or repeated):
            return OperationRisk(RiskLevel.MEDIUM if own else RiskLevel.HIGH, Category.FILESYSTEM,
                                 "virsh undefine deletes a machine and its disks")  # fmt: skip
        if verb in ("destroy", "undefine", "snapshot-delete", "vol-delete", "vol-wipe") and repeated:
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 f"virsh {verb} on every machine or volume a listing gives")  # fmt: skip
        if verb == "snapshot-revert" and (repeated or "--force" in flags):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                                 "virsh snapshot-revert throws away machines' current state")  # fmt: skip
        if verb in ("pool-delete", "vol-wipe"):
            return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, f"virsh {verb} erases VM storage")
    if name in ("qm", "pct") and verb == "destroy" and (repeated or "--purge" in flags):
        # one machine (a CI runner the job made) is a tear-down; every one a listing gives is the estate
        return OperationRisk(RiskLevel.HIGH if repeated else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             f"{name} destroy deletes machines and their disks"
                             + (" (every one a listing gives)" if repeated else ""))  # fmt: skip
    if name in ("qm", "pct") and verb in ("rollback", "delsnapshot") and repeated:
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, f"{name} {verb} on every machine a listing gives")
    if name == "pvesh" and verb == "delete" and (repeated or "/qemu/" in joined or "/lxc/" in joined):
        return OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "pvesh deletes machines through the API")
    if (name == "pvesh" and "firewall" in joined and re.search(r"--enable[= ]0|--policy_in[= ]ACCEPT", joined)) or (
        name == "pve-firewall" and verb in ("stop", "disable")
    ):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "turns the Proxmox firewall off")
    if name == "govc":
        if verb in ("vm.destroy", "datastore.rm", "pool.destroy", "folder.destroy") or (
            verb == "snapshot.remove" and ("*" in words[1:] or repeated)
        ):
            # one named machine or file (a CI job's own VM, an old ISO) is a tear-down; a listing's is the estate
            single = not repeated and not any("*" in w for w in words[1:]) and verb in ("vm.destroy", "datastore.rm")
            return OperationRisk(RiskLevel.MEDIUM if single else RiskLevel.HIGH, Category.FILESYSTEM,
                                 f"govc {verb} deletes machines, snapshots, files")  # fmt: skip
        if verb == "permissions.set" and re.search(r"-role[= ](?:Admin|Administrator)\b", joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "govc gives an account the Administrator role")
        if verb == "host.service" and _ESXI_SSH.search(joined) and re.search(r"\b(?:enable|start|on)\b", joined):
            return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "govc turns SSH on for an ESXi host")
        if verb in ("vm.power", "vm.destroy") and repeated and "-off" in args:
            return OperationRisk(RiskLevel.HIGH, Category.PROCESS, "govc powers off every machine a listing gives")
    if name == "vim-cmd":
        risk = _vim_cmd(verb, repeated=repeated)
        if risk is not None:
            return risk
    if name == "esxcli":
        risk = _esxcli(joined, repeated=repeated)
        if risk is not None:
            return risk
    if name == "pveum" and re.search(r"\bacl(?:\s+modify)?\s+/\s", joined + " ") and "Administrator" in joined:
        what = "pveum gives an account Administrator on every machine"
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
    if name.lower() == "vboxmanage" and verb == "unregistervm" and "--delete" in flags:
        return OperationRisk(RiskLevel.HIGH if repeated else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             "VBoxManage deletes a machine and its disks")  # fmt: skip
    if name == "qemu-img" and verb == "create" and re.search(r"preallocation=(?:full|falloc)", joined):
        size = next((w for w in reversed(words) if re.fullmatch(r"\d+[TP]", w)), None)
        if size is not None or repeated:
            return OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                                 "qemu-img reserves terabytes of disk up front (fills the datastore)")  # fmt: skip
    if name in ("virt-customize", "virt-sysprep") and re.search(r"--ssh-inject[= ]root:string:", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, f"{name} plants a key for root in an image")
    return None


def _vim_cmd(verb: str, *, repeated: bool) -> OperationRisk | None:
    """ESXi's ``vim-cmd vmsvc/...`` and ``hostsvc/...`` verbs."""
    if verb in ("hostsvc/enable_ssh", "hostsvc/start_ssh", "hostsvc/enable_esx_shell", "hostsvc/start_esx_shell"):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, f"vim-cmd {verb} opens a shell on the ESXi host")
    if verb == "vmsvc/destroy":
        return OperationRisk(RiskLevel.HIGH if repeated else RiskLevel.MEDIUM, Category.FILESYSTEM,
                             "vim-cmd vmsvc/destroy deletes a machine and its disks"
                             + (" (every one a listing gives)" if repeated else ""))  # fmt: skip
    if repeated and verb in ("vmsvc/power.off", "vmsvc/snapshot.removeall", "vmsvc/unregister"):
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, f"vim-cmd {verb} on every machine a listing gives")
    return None


def _esxcli(joined: str, *, repeated: bool) -> OperationRisk | None:
    """ESXi's ``esxcli`` namespaces that open the host, plant accounts or kill its guests."""
    if re.search(r"network firewall set\b.*--enabled[= ](?:false|0)\b|network firewall unload", joined):
        return OperationRisk(RiskLevel.HIGH, Category.NETWORK, "esxcli turns the ESXi firewall off")
    if re.search(r"system permission set\b.*(?:-r|--role)[= ]Admin\b", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "esxcli gives a local account the Admin role")
    if re.search(r"software acceptance set\b.*CommunitySupported|--no-sig-check|execInstalledOnly\s+-v\s+FALSE",
                 joined):  # fmt: skip
        return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                             "esxcli lets unsigned software run on the ESXi host")  # fmt: skip
    if re.search(r"software vib install\b.*-v\s+http://", joined):
        return OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, "esxcli installs a VIB fetched over plain HTTP")
    if repeated and re.search(r"vm process kill\b", joined):
        return OperationRisk(RiskLevel.HIGH, Category.PROCESS, "esxcli kills every machine a listing gives")
    return None


def image_commands(name: str, args: Sequence[str]) -> list[str]:
    """Shell commands ``virt-customize``/``virt-sysprep`` run inside an image (``--run-command``)."""
    if name not in ("virt-customize", "virt-sysprep"):
        return []
    found = []
    for i, arg in enumerate(args):
        if arg in ("--run-command", "--firstboot-command") and i + 1 < len(args):
            found.append(args[i + 1])
        elif arg.startswith(("--run-command=", "--firstboot-command=")):
            found.append(arg.split("=", 1)[1])
    return found


def machine_captures(name: str, args: Sequence[str]) -> list[str]:
    """Files a command fills with a machine's memory or disks (``virsh dump``, ``govc export.ovf``)."""
    _, words = options(args, frozenset({"-vm", "-O", "-f", "--format"}))
    verb = words[0] if words else ""
    if (name == "virsh" and verb in ("dump", "save")) or (name == "govc" and verb in ("export.ovf", "vm.export")):
        return words[-1:] if len(words) >= 3 or name == "govc" else []
    if name == "qemu-img" and verb in ("convert", "dd") and len(words) >= 3 and machine_storage(words[1]):
        return words[-1:]
    return []


def machine_storage(path: str) -> bool:
    """``path`` is where a hypervisor keeps its guests' disks (not an image a project builds)."""
    return path.startswith(_MACHINE_STORAGE)


_MACHINE_STORAGE = ("/var/lib/libvirt/", "/var/lib/vz/", "/vmfs/", "/mnt/pve/", "/dev/", "/var/lib/nova/instances/",
                    "/var/lib/docker/volumes/")  # fmt: skip


_DATASTORE_FILE = re.compile(r"/folder/[^?\s]*\.(?:vmdk|vmem|vmsn|vmss|nvram)\b|/folder/\S*[?&]dsName=")


def datastore_file_url(url: str) -> bool:
    """``url`` fetches a file off a vSphere datastore (a guest's disk or memory image): everything it held."""
    return "/folder/" in url and _DATASTORE_FILE.search(url) is not None


#: Words without which no vSphere estate rule can match.
_ESTATE_WORDS = GateWords("romiscuous", "RemoveVirtualNic", "interface remove", "portgroup remove", "uplink remove",
                                   "UpdateDiskPartitions", "partedUtil", "fileOperation", "ESX Admins", "vmkfstools",
                                   "StartProgramInGuest", "process kill", "CreateSnapshot_Task",
                                   "SetEntityPermissions")  # fmt: skip
#: Switches that let guests see every frame and forge addresses (pyVmomi's security policy, esxcli's flags).
_PROMISCUOUS = re.compile(r"allow(?:Promiscuous|-promiscuous)\s*=\s*(?:True|true)")
_FORGED = re.compile(r"forged(?:Transmits|-transmits)\s*=\s*(?:True|true)")
#: A host's management interface or network removed (its vmkernel NICs, the Management Network, the uplinks).
_MANAGEMENT_CUT = re.compile(
    r"\binterface\s+remove\b[^\n]*vmk0\b|portgroup\s+remove\b[^\n]*Management Network|\buplink\s+remove\b"
    r"|\.RemoveVirtualNic\("
)
#: Partition tables of the disks behind datastores rewritten.
_DATASTORE_DISK_WIPE = re.compile(
    r"\bpartedUtil\s+(?:mklabel|delete|setptbl)\b[^\n]*/vmfs/devices/disks/|\.UpdateDiskPartitions\("
)
_DISKS_DESTROYED = re.compile(r"fileOperation\s*=\s*[\"']destroy[\"']")
#: The Active Directory group domain-joined ESXi hosts make administrators (CVE-2024-37085).
_ESX_ADMINS = re.compile(r"ESX Admins[\s\S]{0,400}?(?:member|MODIFY_ADD|Add-ADGroupMember|add)|"
                         r"(?:New-ADGroup|Add-ADGroupMember|group\s+add)[^\n]*ESX Admins")
#: Disks preallocated from the free space of datastores.
_DATASTORE_FILL = re.compile(r"\bvmkfstools\s+-c\s+[\"']?\$\(\(?[^\n]*-d\s+eagerzeroedthick")
_ADMIN_ROLE_LOOKUP = re.compile(r"roleId\s*=\s*-1\b|\.name\s*==\s*[\"'](?:Admin|Administrator)[\"']")
_BARE_DOWNLOAD = re.compile(r"https?://(\d{1,3}(?:\.\d{1,3}){3})")


def vsphere_estate_risks(text: str) -> list[OperationRisk]:
    """What ``text`` does to a vSphere estate as a whole: its hosts' networks and disks, every guest."""
    if not _ESTATE_WORDS.any_in(text):
        return []
    found = []
    many = any_listing(text)
    if _PROMISCUOUS.search(text) and (_FORGED.search(text) or many):
        what = "lets guests see every frame of a virtual switch and forge addresses (promiscuous, forged transmits)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    cut = _MANAGEMENT_CUT.search(text)
    if cut and ("RemoveVirtualNic" not in cut[0] or many):
        what = "removes ESXi hosts' management network (vmkernel NICs, port groups, uplinks): they drop off the network"
        found.append(OperationRisk(RiskLevel.HIGH, Category.NETWORK, what))
    if _DATASTORE_DISK_WIPE.search(text) and ("partedUtil" in text or many):
        what = "rewrites the partition tables of the disks behind datastores (every VM on them is lost)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _DISKS_DESTROYED.search(text) and many:
        what = "removes the virtual disks of every machine a listing gives and deletes their files"
        found.append(OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what))
    if _ESX_ADMINS.search(text):
        what = "creates or fills the AD group 'ESX Admins' (domain-joined ESXi hosts make its members administrators)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    if _DATASTORE_FILL.search(text):
        what = "preallocates disks as large as datastores' free space (every VM on them stops writing)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    bare = [ip for ip in _BARE_DOWNLOAD.findall(text) if outside_address(ip)]
    if "StartProgramInGuest" in text and "FileTransferToGuest" in text and bare and many:
        what = f"copies a program from a bare outside address ({bare[0]}) into every guest and starts it"
        found.append(OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what))
    if "vm process kill" in text and many:
        found.append(OperationRisk(RiskLevel.HIGH, Category.PROCESS, "kills every machine an ESXi host runs"))
    if "CreateSnapshot_Task" in text and _ENDLESS.search(text):
        what = "snapshots machines in an endless loop (datastores fill with delta disks)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what))
    if "SetEntityPermissions" in text and _ADMIN_ROLE_LOOKUP.search(text) and "rootFolder" in text:
        what = "gives an account or group vCenter's Administrator role on everything (the root folder)"
        found.append(OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what))
    return found


_ENDLESS = re.compile(r"\bwhile\s+(?:True|1)\s*:|itertools\.count\(|\bwhile\s+true\b|\bwhile\s+:")

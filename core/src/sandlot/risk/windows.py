"""Windows command lines reached from Linux or macOS: WSL's interop (``powershell.exe``, ``cmd.exe``,
``reg.exe``), a PowerShell ``-Command``, a ``cmd /c`` string (shared by both analyzers).

Windows says in its own words what takes a machine's defences or its recovery away, or plants a
program that starts at logon: Defender's real-time protection switched off or whole drives excluded,
the firewall's profiles turned off, event logs cleared, shadow copies and backup catalogues deleted,
a Run key or a scheduled task that starts a downloaded script, a port proxy that relays RDP to every
address, an account added to the administrators, Hyper-V's machines switched off or deleted with their disks.
"""

from __future__ import annotations

import re

from sandlot.risk.control_plane import OperationRisk
from sandlot.risk.gate_words import GateWords
from sandlot.risk.model import Category, RiskLevel

#: Programs whose arguments are Windows command text (``.exe`` already stripped).
WINDOWS_TOOLS = frozenset(
    {"reg", "schtasks", "netsh", "wevtutil", "bcdedit", "wbadmin", "vssadmin", "wmic", "sc", "taskkill", "net",
     "takeown", "icacls", "rundll32", "procdump", "procdump64"}
)  # fmt: skip

_RULES: tuple[tuple[re.Pattern[str], OperationRisk], ...] = (
    # a per-user handler for an auto-elevating program's protocol (fodhelper, computerdefaults, sdclt): the
    # command registered runs elevated without a UAC prompt
    (re.compile(r"(?:ms-settings|exefile|Folder|mscfile)\\+shell\\+open\\+command[\s\S]{0,400}?DelegateExecute"
                r"|DelegateExecute[\s\S]{0,400}?(?:ms-settings|exefile|Folder|mscfile)\\+shell\\+open\\+command",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "hijacks an auto-elevating program's handler in the registry (a UAC bypass)")),
    # every process stopped (only this shell spared by its id): no name picks which
    (re.compile(r"\bGet-Process\s*(?:\|\s*(?:Where-Object|\?|where)\s*\{[^}]*\$_\.Id\s*-ne\s*\$PID[^}]*\}\s*)?"
                r"\|\s*Stop-Process\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                   "stops every process of the machine (Get-Process | Stop-Process)")),
    (re.compile(r"Set-MpPreference\b[^\n;|]*-Disable\w+\s+\$?(?:true|1)\b|Add-MpPreference\b[^\n;|]*-Exclusion"
                r"|Set-MpPreference\b[^\n;|]*-MAPSReporting\s+0|Uninstall-WindowsFeature\s+Windows-Defender", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off Windows Defender or excludes whole folders from it")),
    (re.compile(r"\bnetsh\s+(?:advfirewall\s+set\s+\w+\s+state\s+off|firewall\s+set\s+opmode\s+disable)"
                r"|Set-NetFirewallProfile\b[^\n;|]*-Enabled\s+\$?(?:false|0)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns the Windows firewall off")),
    (re.compile(r"\bnetsh\s+interface\s+portproxy\s+add\b[^\n;|&]*listenaddress=0\.0\.0\.0", re.I),
     OperationRisk(RiskLevel.HIGH, Category.NETWORK, "relays a port (RDP, SMB) to every address through a port proxy")),
    (re.compile(r"\bwevtutil(?:\.exe)?[\"',\s]+(?:/\S+\s+)*(?:cl|clear-log)\b|\bClear-EventLog\b|\bRemove-EventLog\b",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "clears Windows event logs (the audit trail)")),
    (re.compile(r"\bntdsutil(?:\.exe)?\b[^\n]*\bifm\b|\bntds\.dit\b[^\n]*(?:copy|Copy-Item|esentutl)"
                r"|\breg(?:\.exe)?\s+save\s+HKLM\\(?:SAM|SECURITY)\b|\bcomsvcs(?:\.dll)?\b[^\n]*MiniDump", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                   "copies the domain's or the machine's password database (NTDS.dit, SAM, LSASS memory)")),
    (re.compile(r"\bvssadmin(?:\.exe)?[\"',\s]+delete\s+shadows\b|\bwbadmin(?:\.exe)?[\"',\s]+delete\s+(?:catalog|backup)"
                r"|\bbcdedit(?:\.exe)?[\"',\s]+/set\b[^\n&|]*(?:recoveryenabled\s+no|bootstatuspolicy\s+ignoreallfailures)"
                r"|Win32_ShadowCopy\b[^\n]*Delete|\bwmic\s+shadowcopy\s+delete", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes Windows' shadow copies or backups, or its recovery")),
    (re.compile(r"\breg(?:\.exe)?\s+add\s+[\"']?HK(?:CU|LM|EY_CURRENT_USER|EY_LOCAL_MACHINE)\\[^\n]*"
                r"\\CurrentVersion\\(?:Run|RunOnce|Policies\\Explorer\\Run)\b"
                r"|\b(?:New|Set)-ItemProperty\b[^\n]*\\CurrentVersion\\Run(?:Once)?\b"
                r"|-keyName\s+[\"']?HK(?:CU|LM)\\[^\n]*\\CurrentVersion\\Run(?:Once)?\b"  # impacket-reg, remotely
                r"|\\Winlogon\b[^\n]*\b(?:Userinit|Shell)\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "adds a program Windows starts at every logon (a Run key)")),
    (re.compile(r"\bschtasks(?:\.exe)?\s+/create\b[^\n]*(?:powershell|cmd|http|\.ps1|\.exe|-enc)"
                r"|\bRegister-ScheduledTask\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "creates a scheduled task that starts a program")),
    (re.compile(r"\bnet(?:\.exe)?\s+(?:localgroup\s+\"?administrators\"?|group\s+\"?domain admins\"?)\s+\S+\s+/add\b"
                r"|\bAdd-(?:LocalGroupMember|ADGroupMember)\b[^\n]*(?:Administrators|Domain Admins|Enterprise Admins)"
                r"|\bNetLocalGroupAddMembers\([^)]*[\"']Administrators[\"']"
                # a GPO's restricted groups: the members of every machine's local Administrators, domain-wide
                r"|\*S-1-5-32-544__Members\s*=\s*\S", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "adds an account to Windows' administrators")),
    (re.compile(r"\bGet-VM\b[^\n]*\|\s*(?:Stop-VM\b[^\n]*-TurnOff|Remove-VM\b)|\bRemove-VM\b[^\n]*-Force"
                r"|\bHardDrives\b[^\n]*\|[^\n]*Remove-Item\b|\bRemove-Item\b[^\n]*\.vhdx?\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "pulls the plug on Hyper-V's machines or deletes their disks")),
    (re.compile(r"\bEnableLUA\b[\s\S]{0,240}?(?:/d\s+0\b|[\"']?\s*[:,]\s*0\b|-Value\s+0\b)"
                r"|\bConsentPromptBehaviorAdmin\b[\s\S]{0,120}?(?:/d\s+0\b|[\"']?\s*[:,]\s*0\b|-Value\s+0\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off User Account Control (programs get admin silently)")),
    (re.compile(r"\b(?:DisableAntiSpyware|DisableRealtimeMonitoring|DisableBehaviorMonitoring|DisableIOAVProtection)\b"
                r"[\s\S]{0,120}?(?:/d\s+1\b|[\"']?\s*[:,]\s*1\b|REG_DWORD,\s*1\b)"
                r"|\bEnableSmartScreen\b[\s\S]{0,120}?(?:/d\s+0\b|REG_DWORD,\s*0\b|[\"']?\s*[:,]\s*0\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off Windows Defender or SmartScreen by policy")),
    (re.compile(r"\\SpecialAccounts\\+UserList\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "hides an account from the logon screen (a hidden account)")),
    (re.compile(r"\bClear-Disk\b[^\n]*-RemoveData\b|\bInitialize-Disk\b[^\n]*\|[^\n]*\bFormat-Volume\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "wipes whole disks (every partition and its data)")),
    (re.compile(r"\bregsvr32(?:\.exe)?\b[^\n]*/i:\s*[\"']?https?://", re.I),
     OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                   "has regsvr32 run a scriptlet from a web address (code from the internet, past application "
                   "allow-lists)")),
    (re.compile(r"Image File Execution Options[\s\S]{0,300}?\bDebugger\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                   "sets a Debugger for a program (it runs instead: the sticky-keys back door)")),
    (re.compile(r"\bfDenyTSConnections\b[\s\S]{0,80}?(?:/d\s+0\b|[\"']?\s*[:,]\s*0\b|REG_DWORD,\s*0\b|-Value\s+0\b)"
                r"|\bUserAuthentication\b[\s\S]{0,60}?(?:/d|-Value)\s+0\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.NETWORK, "turns Remote Desktop on (or its network-level login off)")),
    (re.compile(r"\bcomsvcs(?:\.dll)?\W+MiniDump\b|\bprocdump\w*(?:\.exe)?\b[^\n]*\blsass\b"
                r"|\bMiniDump(?:WriteDump)?\b[^\n]*\blsass\b|\blsass\b[^\n]*\bMiniDump", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "dumps lsass memory (the logged-on users' credentials)")),
    (re.compile(r"\bsc(?:\.exe)?\s+(?:[\"']?\\\\+[^\s\"']+[\"']?\s+)?create\b[^\n]*\bstart=\s*auto\b"
                r"|\bNew-Service\b[^\n]*-StartupType\s+Automatic", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "installs a service that starts with Windows")),
    (re.compile(r"\bicacls(?:\.exe)?\s+[\"']?[A-Z]:\\(?:Windows|Program Files|ProgramData)\b[^\n]*"
                r"/grant\s+[\"']?\*?(?:Everyone|Users|Authenticated Users|S-1-1-0)[\"']?:\(?(?:OI\)\(CI\)\(?)?F\b"
                r"|\btakeown(?:\.exe)?\s+/f\s+[\"']?[A-Z]:\\Windows\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "hands Windows' own folders to everyone (full control)")),
    (re.compile(r"\btaskkill(?:\.exe)?\b[^\n]*(?:MsMpEng|MsSense|SecurityHealthService|csfalcon\w*|SentinelAgent"
                r"|Cylance\w*|CbDefense\w*|elastic-agent|xagt)\b"
                r"|\btaskkill(?:\.exe)?\b[^\n]*/FI\s+[\"']?USERNAME\s+eq\b"
                r"|(?:MsMpEng|MsSense|csfalcon|SentinelAgent|sentinel|cylance|sophos|elastic-agent|sysmon)\b[^\n]*"
                r"\|\s*xargs\b[^\n]*\btaskkill\b"  # (the agents' names listed first, then killed through xargs)
                r"|\btaskkill(?:\.exe)?\b[^\n]*\bexplorer\.exe\b(?![^\n]*\bstart\s+explorer)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                   "kills security agents, the desktop, or every process of the user")),
    (re.compile(r"\bsc(?:\.exe)?\s+(?:stop|delete|config)\s+[\"']?(?:WinDefend|Sense|WdNisSvc|SecurityHealthService"
                r"|wscsvc|MpsSvc|EventLog|VSS|wbengine|SDRSVC|swprv)\b(?!.*\bstart=\s*(?:auto|demand))", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "stops or disables Windows Defender, the firewall, the event log or shadow copies")),
    (re.compile(r"\bnetsh(?:\.exe)?\s+wlan\s+show\s+profiles?\b[^\n]*\bkey=clear\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "prints saved Wi-Fi passwords in clear")),
    (re.compile(r"\bsave\s+[\"']?HKLM\\+(?:SAM|SECURITY)\b|\breg(?:\.exe)?\b[^\n]*\bsave\s+[\"']?HKLM\\+[{$]", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "saves the registry's password hives (SAM, SECURITY)")),
    (re.compile(r"\b(?:IEX|Invoke-Expression)\b[^\n]*\bDownload(?:String|Data)\b|\bDownload(?:String|Data)\b[^\n]*"
                r"\|\s*(?:IEX|Invoke-Expression)\b|\b(?:iwr|irm|Invoke-WebRequest|Invoke-RestMethod)\b[^\n|]*\|\s*"
                r"(?:iex|Invoke-Expression)\b", re.I),
     OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, "downloads PowerShell code and runs it (a cradle)")),
    (re.compile(r"\bNew-NetFirewallRule\b(?=[^\n]*-Direction\s+Inbound)(?=[^\n]*-Action\s+Allow)[^\n]*"
                r"-RemoteAddress\s+[\"']?(?:Any|\*|0\.0\.0\.0/0|Internet)\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.NETWORK, "opens a Windows host's port to every address (a firewall rule)")),
    # everything a Get- listing returns removed, nothing filtering which (`Get-BrokerMachine | Remove-BrokerMachine`)
    (re.compile(r"\bGet-(\w+)\b(?:(?!\|\s*(?:Where-Object|Where|\?)\b)[^\n|])*\|\s*(?:%\s*\{|ForEach-Object\s*\{)?"
                r"[^\n|]*?\bRemove-\1\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                   "removes every object a Get- listing returns (nothing picks which)")),
    # every machine a listing gives restarted or shut down by force
    (re.compile(r"\|\s*(?:%|ForEach-Object)\s*\{[^}]*\b(?:Restart|Stop)-Computer\b[^}]*-Force\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                   "restarts or shuts down, by force, every machine a listing gives")),
    # every virtual desktop powered off or reset (Citrix's power actions over every broker machine)
    (re.compile(r"\bGet-BrokerMachine\b[^\n]*\|[^\n]*\bNew-BrokerHostingPowerAction\b[^\n]*-Action\s+"
                r"[\"']?(?:TurnOff|Reset|Shutdown|Restart)\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS, "powers off or resets every virtual desktop of the site")),
    # credentials kept in clear in memory (WDigest), LSA protection off, every installer run as SYSTEM
    (re.compile(r"\bUseLogonCredential\b[\s\S]{0,80}?(?:/d[\"',\s]+1\b|-Value\s+1\b|[\"']?\s*[:,]\s*1\b)"
                r"|\bRunAsPPL\b[\s\S]{0,80}?(?:/d[\"',\s]+0\b|-Value\s+0\b|[\"']?\s*[:,]\s*0\b)"
                r"|\bAlwaysInstallElevated\b[\s\S]{0,120}?(?:/d[\"',\s]+1\b|-Value\s+1\b|[\"']?\s*[:,]\s*1\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "weakens Windows' credential protection (WDigest clear-text passwords, LSA protection off, "
                   "installers elevated for everyone)")),
    # a command run on every machine a list file names (`wmic /node:@hosts.txt process call create "shutdown …"`)
    (re.compile(r"\bwmic(?:\.exe)?\s+/node:@\S+[^\n]*\bprocess\s+call\s+create\b[^\n]*\b(?:shutdown|format|del|rd)\b",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                   "runs a shutdown or a delete on every machine a host list names (wmic /node:@list)")),
    (re.compile(r"\b(?:__EventFilter|CommandLineEventConsumer|ActiveScriptEventConsumer|__FilterToConsumerBinding)\b"
                r"|\bRegister-(?:Wmi|Cim)Event\b[^\n]*-Action\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                   "plants a WMI event subscription that runs a command (survives reboots, hides from autoruns)")),
    (re.compile(r"\bNet\.Sockets\.TCPClient\b[\s\S]{0,400}?\bGetStream\b[\s\S]{0,400}?\b(?:iex|Invoke-Expression)\b",
                re.I),
     OperationRisk(RiskLevel.CRITICAL, Category.NETWORK, "runs the commands a TCP connection sends (a reverse shell)")),
    (re.compile(r"\b1131f6a[ad]-9c07-11d1-f79f-00c04fc2dcd2\b|\b89e95b76-444d-4c62-991a-0facbeda640c\b"
                r"|-Rights\s+DCSync\b|-rights\s+DCSync\b|\bDS-Replication-Get-Changes(?:-All)?\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "grants directory replication rights (DCSync: every account's password hash)")),
    (re.compile(r"\bwhile\s*\(\s*(?:\$true|1)\s*\)\s*\{[^}]*\b(?:Start-Process|Start-Job|\+=\s*,?\s*\(?New-Object\s+byte)",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                   "starts processes or allocates memory in an endless loop (exhausts the host)")),
    (re.compile(r"\bfsutil(?:\.exe)?\s+file\s+createnew\b[^\n]*\.Free\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "creates a file as large as the disk's free space (fills it)")),
    (re.compile(r"\bSet-Service\b[^\n;|]*-StartupType\s+[\"']?Disabled\b"
                r"|\bsc(?:\.exe)?\s+(?:\\\\\S+\s+)?config\s+\S+\s+start=\s*disabled\b"
                r"|\b(?:net\s+rpc\s+service\s+(?:stop|delete)|Stop-Service\b[^\n;|]*?|sc(?:\.exe)?\s+(?:\\\\\S+\s+)?"
                r"(?:stop|delete))\s+[\"']?(?:NTDS|Netlogon|Kdc|ADWS|DFSR|IsmServ)\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS,
                   "stops a domain controller's directory or logon service, or keeps a service from ever starting")),
    (re.compile(r"\bRemove-ADOrganizationalUnit\b[^\n]*-Recursive\b|\|\s*(?:Remove-ADUser|Remove-ADComputer"
                r"|Remove-ADGroup|Disable-ADAccount|Remove-ADObject)\b|\bRemove-ADObject\b[^\n]*-Recursive\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                   "deletes or disables every directory account or object a query gives (whole OUs)")),
    (re.compile(r"\bSet-ADAccountPassword\b[^\n]*\b(?:Administrator|krbtgt)\b"
                r"|\bSet-ADDefaultDomainPasswordPolicy\b[^\n]*(?:-ComplexityEnabled\s+\$false|-MinPasswordLength\s+[0-5]\b"
                r"|-LockoutThreshold\s+0\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "resets the built-in administrator's or krbtgt's password, or weakens the password policy")),
    # Exchange Online: mail forwarded out of the organisation, every mailbox opened to one account, auditing off
    (re.compile(r"\bSet-Mailbox\b[^\n]*-Forwarding(?:Smtp)?Address\b"
                r"|\bNew-InboxRule\b[\s\S]{0,300}?-(?:ForwardTo|RedirectTo|ForwardAsAttachmentTo)\b"
                r"|\bNew-TransportRule\b[\s\S]{0,300}?-(?:BlindCopyTo|RedirectMessageTo|AddToRecipients)\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "forwards mailboxes' mail to another address (Exchange)")),
    (re.compile(r"-ResultSize\s+Unlimited[\s\S]{0,400}?\bAdd-(?:Mailbox|Recipient)Permission\b[^\n]*"
                r"(?:FullAccess|SendAs)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "gives one account full access to, or send-as on, every mailbox of the organisation")),
    (re.compile(r"-AuditDisabled\s+\$true\b|-UnifiedAuditLogIngestionEnabled\s+\$false\b"
                r"|\bSet-Mailbox\b[^\n]*-AuditEnabled\s+\$false\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "turns off Exchange's mailbox or unified audit logging")),
    # a download through certutil (a signed Windows tool, used to slip past download controls)
    (re.compile(r"\bcertutil(?:\.exe)?\b[^\n]*-urlcache\b[^\n]*https?://", re.I),
     OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE,
                   "downloads a file with certutil -urlcache (a signed tool used to slip past download controls)")),
    (re.compile(r"\bBinaryFormatter\b[\s\S]{0,400}?\.Deserialize\(", re.I),
     OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION,
                   "deserializes with .NET's BinaryFormatter (the data can run code)")),
    (re.compile(r"\bfsutil(?:\.exe)?\s+file\s+createnew\s+\S+\s+\d{11,}\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "creates files of tens of gigabytes (fills the disk)")),
    (re.compile(r"\bput\s+\S+\s+[\"']?\S*authorized_keys\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "copies an SSH key into a host's authorized keys (a way in)")),
    (re.compile(r"\bPasswordVault\b[\s\S]{0,400}?\bRetrieveAll\b|\bCredEnumerate[AW]?\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                   "reads every password saved in Windows' Credential Manager or Credential Locker")),
    (re.compile(r"\bSet-ExecutionPolicy\s+(?:Unrestricted|Bypass)\b[^\n]*-Scope\s+LocalMachine", re.I),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "lets every script run on the machine")),
    # IIS: application pools run as SYSTEM, anonymous visitors as the Administrator, every request redirected
    (re.compile(r"processModel\.identityType:\s*[\"']?LocalSystem\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "runs IIS application pools as LocalSystem (a hole in any site owns the machine)")),
    (re.compile(r"anonymousAuthentication\b[\s\S]{0,200}?/userName:\s*[\"']?(?:\.\\\\?)?(?:Administrator|\w*admin\w*)\b",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "makes IIS serve anonymous visitors as an administrator account")),
    (re.compile(r"system\.webServer/httpRedirect\b(?=[^\n]*/enabled:\s*[\"']?true)[^\n]*/destination:\s*[\"']?https?://"
                r"|system\.webServer/httpRedirect\b[\s\S]{0,200}?/destination:\s*[\"']?https?://[\s\S]{0,200}?"
                r"/commit:apphost", re.I),
     OperationRisk(RiskLevel.HIGH, Category.NETWORK, "redirects every request a web server gets to another site")),
    (re.compile(r"(?:range\(\s*|seq\s+\d+\s+)(?:[1-9]\d{2,})\s*\)?[\s\S]{0,300}?\badd[\"',\s]+apppool\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                   "creates hundreds of IIS application pools (the server's memory and processes run out)")),
    (re.compile(r"\bicacls\b[^\n]*/grant[\"',\s]+\*?(?:Everyone|S-1-1-0)[\"']?:\(?(?:OI\)\(CI\)\(?)?F\b[^\n]*/T\b",
                re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gives everyone full control of a whole folder tree")),
    (re.compile(r"\bwhile\s*(?::|true|\(\s*\$true\s*\))[^\n]*\btaskkill(?:\.exe)?\b[^\n]*/IM\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS, "kills a program again and again in an endless loop (kept down)")),
    (re.compile(r"\bExport-PfxCertificate\b[\s\S]{0,300}?(?:Cert:\\\\?LocalMachine|HasPrivateKey)"
                r"|(?:Cert:\\\\?LocalMachine|HasPrivateKey)[\s\S]{0,300}?\bExport-PfxCertificate\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                   "exports the machine's certificates with their private keys")),
    (re.compile(r"/disable-feature\b[^\n]*IIS-WebServerRole\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PROCESS, "removes the IIS web server role (every site on it stops)")),
    # signing and channel binding switched off on domain controllers and servers (relay attacks succeed)
    (re.compile(r"\b(?:LDAPServerIntegrity|LdapEnforceChannelBinding|RequireSecuritySignature|RequireSignOrSeal"
                r"|FullSecureChannelProtection)\b[\s\S]{0,80}?(?:/d\s+0\b|[\"']?\s*[:=]\s*0\b|-Value\s+0\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.NETWORK, "switches LDAP or SMB signing, or channel binding, off")),
    (re.compile(r"\bGet-GPO\s+-All\b[^\n]*\|[^\n]*\bRemove-GPO\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes the domain's group policies")),
    # BitLocker suspended with no resume, turned off, or its recovery protectors deleted: the disk opens for anyone
    (re.compile(r"Suspend-BitLocker\b[^\n]*-RebootCount\s+0\b|\bDisable-BitLocker\b|Remove-BitLockerKeyProtector\b"
                r"|\bmanage-bde(?:\.exe)?\s+(?:-off\b|-protectors\s+-(?:delete|disable)\b)", re.I),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                   "turns BitLocker off, suspends it with no end or deletes its protectors")),
    (re.compile(r"\bdisk_usage\([^)]*\)\.free\b[\s\S]{0,300}?\bcreatenew\b", re.I),
     OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "creates a file as large as the disk's free space (fills it)")),
)


#: Git Bash (MSYS2) spells a switch `//add` so that it is not taken for a path.
_MSYS_SWITCH = re.compile(r"(?<=\s)//(?=\w)")


#: Words without which Python code spells no Windows command or registry change (a cheap test first).
WINDOWS_WORDS = GateWords("/add", "MpPreference", 'CurrentVersion\\Run', "winreg", "reg add", "taskkill", "lsass",
                          "icacls", "DelegateExecute", "HKLM", "DownloadString", "key=clear", "WinDefend",
                          "administrators_authorized_keys", "-keyName", "Mailbox", "InboxRule", "TransportRule",
                          "Audit", "urlcache", "BinaryFormatter", "createnew", "PasswordVault", "CredEnumerate",
                          "identityType", "anonymousAuthentication", "httpRedirect", "apppool",
                          "Export-PfxCertificate", "IIS-WebServerRole", "vssadmin", "wevtutil", "wbadmin", "bcdedit",
                          "BitLocker", "manage-bde", "Integrity", "ChannelBinding", "Signature", "SignOrSeal",
                          "SecureChannel", "Remove-GPO", "EventFilter", "EventConsumer", "UseLogonCredential",
                          "RunAsPPL", "AlwaysInstallElevated", "EnableLUA", "/node:@", "Remove-",
                          "HostingPowerAction", "-Computer", "NetLocalGroupAddMembers", "S-1-5-32-544",
                          "SpecialAccounts", "Clear-Disk", "regsvr32")


def windows_text_risks(text: str) -> list[OperationRisk]:
    """What Windows command text (a ``cmd /c`` string, PowerShell code, a tool's arguments) does."""
    text = _MSYS_SWITCH.sub("/", text) if "//" in text else text
    return [risk for pattern, risk in _RULES if pattern.search(text)]

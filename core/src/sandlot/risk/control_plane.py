"""Cloud and cluster control-plane operations that grant, expose, blind or exhaust (shared by both analyzers).

The same operation has many spellings: ``iam.create_access_key(...)`` in boto3, ``aws iam
create-access-key`` on the command line, ``CreateAccessKey`` in the API. Both analyzers reduce
what they see to one lower-case word without separators (:func:`operation`) plus the argument
strings, and ask :func:`assess_operation`. Deleting resources is graded elsewhere
(``cloud-destroy``); this module covers what the control plane can do besides deleting.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import attrs

from sandlot.risk.destinations import backup_host, registered_domain
from sandlot.risk.model import Category, Finding, RiskLevel

_SEPARATORS = re.compile(r"[-_\s.()]+")


def operation(*words: str) -> str:
    """One word per operation: ``("iam", "create-access-key")`` → ``iamcreateaccesskey``."""
    return _SEPARATORS.sub("", "".join(words)).lower()


@attrs.frozen
class OperationRisk:
    """What an operation does, how bad it is, and whether its result is secret data."""

    level: RiskLevel
    category: Category
    what: str
    secret: bool = False


@attrs.frozen
class _Rule:
    ops: tuple[str, ...]  # any of these inside the operation word
    risk: OperationRisk
    needs: re.Pattern[str] | None = None  # searched in the arguments joined by spaces (None: always)


_ADMIN_ROLE = re.compile(
    r"administratoraccess|iamfullaccess|cluster-admin|\broles/(?:owner|editor)\b|(?:^|\s|=)owner(?:\s|$)"
    r"|\broles/billing\.(?:admin|creator)\b|\broles/resourcemanager\.organizationadmin\b|billingadmin"
    r"|8e3af657-a8ff-443c-a75c-2fe8c4bcb635|user access administrator|poweruseraccess|key vault administrator"
    r"|\broles/cloudkms\.admin\b|\broles/secretmanager\.admin\b",
    re.IGNORECASE,
)
_ADMIN_ROLE_OR_PERMISSION = re.compile(r"\b(?:admin|maintain|owner)\b|access_level\W+[45]0\b", re.I)
_ANYONE = re.compile(r"(?:^|\s)\*(?:\s|$)|\ballusers\b|\ballauthenticatedusers\b|principal\W+\*", re.IGNORECASE)
_WORLD = re.compile(r"(?:^|[\s=,'\"\[{])(?:0\.0\.0\.0/0|::/0)"
                    # Azure's service tag for every address, and its wildcard (`--source-address-prefixes Internet`)
                    r"|--source-address-prefix(?:es)?[\s=]+['\"]?(?:Internet|\*|Any)(?:['\"\s]|$)")
_PUBLIC_ACL = re.compile(r"public-read(?:-write)?|authenticated-read|\ballusers\b", re.IGNORECASE)
_SSH_KEYS = re.compile(r"ssh-?keys|sshkeys", re.IGNORECASE)
_DECRYPT = re.compile(r"with-?decryption|withdecryption", re.IGNORECASE)

_PUBLIC_BLOCK_OFF = re.compile(r"(?:blockpublic\w*|ignorepublicacls|restrictpublicbuckets)\W+false", re.I)
#: Capacity asked for at once: hundreds of instances (a spot fleet, an autoscaling group, one launch).
_HUNDREDS = re.compile(
    r"(?:targetcapacity|desired-?capacity|desiredcapacity|maxcount|max-?size|--count|instancecount|sku\.capacity"
    r"|--instance-count|desired-?size|min-?size|--(?:min|max|num|total-min|total-max)-nodes|--node-count"
    r"|--min-count|--max-count|--new-capacity|provisioned-?concurrent-?executions"
    # always-ready instances of serverless plans (Cloud Run, Azure Functions' premium plans)
    r"|--min-instances|--max-burst|minimumelasticinstancecount|prewarmedinstancecount)\W{1,4}[1-9]\d{2,}",
    re.IGNORECASE,
)

#: A policy document allowing every action (of everything, or of a whole service) on every resource.
_EVERY_ACTION_EVERYWHERE = re.compile(
    r"^(?=[\s\S]*[\"']Action[\"']\W+(?:\[\s*)?[\"'](?:\*|[\w-]+:\*)[\"'])"
    r"(?=[\s\S]*[\"']Resource[\"']\W+(?:\[\s*)?[\"']\*[\"'])(?![\s\S]*[\"']Condition[\"'])"
)

#: A trust policy or a share naming another account (an AWS account id or ARN), or every account.
_OTHER_ACCOUNT = re.compile(r"arn:aws:iam::\d{12}:|principal\W+(?:\{\W*aws\W+)?\*"
                            r"|(?:^|[\s\[,'\"=])\d{12}(?:[\s\],'\"]|$)"
                            r"|(?:^|[\s\[,'\"=])all(?:[\s\],'\"]|$)|group\W+all\b", re.IGNORECASE)
_BLOB_PUBLIC = re.compile(r"allow[-_]?blob[-_]?public[-_]?access\W+true|public[-_]?access\W+(?:container|blob)\b",
                          re.IGNORECASE)

_RULES = (
    _Rule(
        ("createfunctionurlconfig", "updatefunctionurlconfig"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK,
                      "gives a function a public URL anyone can call without authentication"),
        needs=re.compile(r"auth-?type\W+NONE\b", re.IGNORECASE),
    ),
    _Rule(
        ("lambdaaddpermission", "clientaddpermission", "functionsaddiampolicybinding",
         "functionsaddinvokerpolicybinding", "runservicesaddiampolicybinding"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "lets anyone invoke a function"),
        needs=re.compile(r"principal\W+\*|\ballusers\b", re.IGNORECASE),
    ),
    _Rule(
        ("putfunctionconcurrency",),
        OperationRisk(RiskLevel.HIGH, Category.PROCESS, "stops a function from running at all (its concurrency set "
                      "to zero: every request fails)"),
        needs=re.compile(r"reserved-?concurrent-?executions\W+0\b", re.IGNORECASE),
    ),
    _Rule(
        ("updatemethod",),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "removes authorization from an API's methods"),
        needs=re.compile(r"authorizationType\W+(?:value=)?NONE\b|authorizationType,value=NONE", re.IGNORECASE),
    ),
    _Rule(
        ("lambdacreatefunction", "clientcreatefunction"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "creates a function that runs with administrator rights"),
        needs=re.compile(r"role/(?:[\w-]*admin[\w-]*|OrganizationAccountAccessRole)\b", re.IGNORECASE),
    ),
    _Rule(
        ("repoedit",),  # `gh repo edit --visibility public`
        OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "makes a private repository public"),
        needs=re.compile(r"--visibility[=\s]+public\b"),
    ),
    _Rule(
        ("updateassumerolepolicy",),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "lets another account (or anyone) assume a role"),
        needs=_OTHER_ACCOUNT,
    ),
    _Rule(
        ("putkeypolicy", "createkey", "putresourcepolicy", "setrepositorypolicy", "putregistrypolicy"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                      "lets every AWS account use a key or a resource (its data decrypted or read)"),
        needs=re.compile(r"principal\W+(?:\{\W*aws\W+)?\*", re.IGNORECASE),
    ),
    _Rule(
        ("modifydbsnapshotattribute", "modifydbclustersnapshotattribute", "modifysnapshotattribute",
         "modifyimageattribute"),
        OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION,
                      "shares a snapshot or machine image with another account (or every account)"),
        needs=_OTHER_ACCOUNT,
    ),
    _Rule(
        ("storageaccountupdate", "storageaccountsupdate", "containersetpermission", "setcontaineraccesspolicy",
         "storageaccountcreate", "storageaccountsbegincreate"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "lets anyone read a storage account's blobs"),
        needs=_BLOB_PUBLIC,
    ),
    _Rule(
        ("cp", "sync", "putobject", "copyobject"),
        OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "copies data into a bucket another account owns"),
        needs=re.compile(r"bucket-owner-full-control", re.IGNORECASE),
    ),
    _Rule(
        ("createpolicy", "createpolicyversion", "putrolepolicy", "putuserpolicy", "putgrouppolicy"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                      "writes a policy that allows every action on every resource"),
        needs=_EVERY_ACTION_EVERYWHERE,
    ),
    _Rule(
        ("closeaccount", "leaveorganization", "removeaccountfromorganization", "disablepolicytype",
         "organizationsdeletepolicy", "organizationsdetachpolicy", "policyassignmentdelete", "lockdelete",
         "policyassignmentsdelete", "managementlocksdelete", "deleteatsubscriptionlevel", "deleteatresourcegrouplevel",
         "projectsunlink", "billingaccountsprojectsunlink", "projectsmove", "organizationsmoveaccount"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                      "changes the organisation itself (accounts closed or moved, guardrails or locks removed)"),
    ),
    _Rule(
        ("schedulekeydeletion", "keyvaultkeydelete", "keyvaultkeypurge", "cryptokeyversionsdestroy",
         "destroycryptokeyversion"),
        OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM,
                      "destroys encryption keys (whatever they encrypted can never be read again)"),
    ),
    _Rule(
        ("deletebudget", "budgetdelete", "budgetsdelete", "deleteanomalymonitor", "deleteanomalysubscription",
         "consumptionbudgetdelete"),
        OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "removes spending budgets or cost alerts"),
    ),
    _Rule(
        ("purchasereservedinstancesoffering", "purchasereserveddbinstancesoffering", "createsavingsplan",
         "purchasereservation", "reservationordercreate", "reservationorderpurchase", "purchasehostreservation",
         "requestservicequotaincrease", "termsaccept"),
        OperationRisk(RiskLevel.HIGH, Category.RESOURCE,
                      "commits money: reservations, savings plans, paid marketplace terms or quota increases"),
    ),
    _Rule(
        ("disableebsencryptionbydefault",),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off default disk encryption for the account"),
    ),
    _Rule(
        ("putpublicaccessblock", "putaccountpublicaccessblock"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "turns off the account's public-access block of storage"),
        needs=_PUBLIC_BLOCK_OFF,
    ),
    _Rule(
        ("requestspotfleet", "createfleet", "setdesiredcapacity", "updateautoscalinggroup", "runinstances",
         "instancescreate", "vmsscreate", "vmssscale", "createautoscalinggroup", "bulkinsert",
         # node pools of managed Kubernetes (EKS node groups, GKE node pools, AKS node pools)
         "nodegroup", "clustersupdate", "clusterscreate", "nodepoolscreate", "nodepoolsupdate", "aksnodepool",
         "aksscale", "akscreate",
         # warm function instances kept running (and billed) around the clock
         "putprovisionedconcurrencyconfig", "functionappplanupdate", "functionappupdate", "runservicesupdate",
         "rundeploy"),
        OperationRisk(RiskLevel.HIGH, Category.RESOURCE, "starts hundreds of instances at once (cost, quota)"),
        needs=_HUNDREDS,
    ),
    _Rule(
        ("createaccesskey", "createloginprofile", "updateloginprofile", "createservicespecificcredential",
         "serviceaccountskeyscreate", "createserviceaccountkey"),
        OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "creates long-lived credentials for an account"),
    ),
    _Rule(
        ("attachuserpolicy", "attachrolepolicy", "attachgrouppolicy", "putuserpolicy", "putrolepolicy",
         "putgrouppolicy", "addiampolicybinding", "setiampolicy", "roleassignment", "createforrbac",
         "clusterrolebinding", "createrolebinding", "createnamespacedrolebinding"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "grants administrator rights"),
        needs=_ADMIN_ROLE,
    ),
    _Rule(
        ("metadata",),
        OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE, "adds SSH keys to instance metadata (a login on every VM)"),
        needs=_SSH_KEYS,
    ),
    _Rule(
        ("stoplogging", "deletetrail", "deletedetector", "disablesecurityhub", "deleteflowlogs", "sinksdelete",
         "deletesink", "diagnosticsettingsdelete", "stopconfigurationrecorder", "deleteconfigurationrecorder",
         "deleteauditconfig", "disablelogging", "deleteloggroup", "deletelogprofile"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off audit logging or threat detection"),
    ),
    _Rule(
        ("deletepublicaccessblock",),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "removes the public-access block of storage"),
    ),
    _Rule(
        ("acl", "cp", "sync", "putobject"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "makes stored objects readable by anyone"),
        needs=_PUBLIC_ACL,
    ),
    _Rule(
        ("putbucketpolicy", "setiampolicy", "addiampolicybinding", "iamch"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "makes storage readable by anyone"),
        needs=_ANYONE,
    ),
    _Rule(
        ("ingress", "firewallrulescreate", "firewallrulesupdate", "nsgrulecreate", "createfirewall"),
        OperationRisk(RiskLevel.HIGH, Category.NETWORK, "opens access from the whole internet (0.0.0.0/0)"),
        needs=_WORLD,
    ),
    _Rule(
        ("modifyinstancemetadataoptions",),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                      "turns IMDSv2 off (the instance's credentials answer any request a server is tricked into)"),
        needs=re.compile(r"(?:http-?tokens|httptokens)\W+optional", re.I),
    ),
    _Rule(
        ("listsecretforallnamespaces", "listnamespacedsecret"),
        OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "reads every secret of the cluster or namespace",
                      secret=True),
    ),
    _Rule(
        ("readnamespacedsecret", "getsecretvalue", "secretsversionsaccess", "keyvaultsecretshow",
         "batchgetsecretvalue", "accesssecretversion"),
        OperationRisk(RiskLevel.MEDIUM, Category.EXFILTRATION, "reads a stored secret", secret=True),
    ),
    _Rule(
        ("addtocollaborators", "addmember", "addcollaborator"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gives an account admin rights"),
        needs=_ADMIN_ROLE_OR_PERMISSION,
    ),
    _Rule(
        ("createkey", "deploykeyadd", "deploykeyscreate", "keyscreate"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "adds a deploy key with write access"),
        needs=re.compile(r"read_only\W+false|readonly\W+false|can_push\W+true|allow.write|\bFalse\b", re.I),
    ),
    _Rule(
        ("removeprotection", "removeadminenforcement", "unprotect", "protectedbranchesdelete"),
        OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "removes branch protection"),
    ),
    _Rule(
        ("repodelete",),
        OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes a whole repository"),
    ),
    _Rule(
        ("getloginpassword",),
        OperationRisk(RiskLevel.MEDIUM, Category.EXFILTRATION, "prints a registry login token", secret=True),
    ),
    _Rule(
        ("getparameter",),
        OperationRisk(RiskLevel.MEDIUM, Category.EXFILTRATION, "reads a decrypted parameter", secret=True),
        needs=_DECRYPT,
    ),
)  # fmt: skip


#: Verbs of operations that only read (an operation word starting with one lists or shows the resource).
_READ_VERBS = ("list", "get", "describe", "read", "show", "watch")


def assess_operation(op: str, arguments: Sequence[str]) -> OperationRisk | None:
    """The risk of control-plane operation ``op`` (see :func:`operation`) called with ``arguments``."""
    joined = " ".join(arguments)
    for rule in _RULES:
        matched = [o for o in rule.ops if o in op]
        if not matched:
            continue
        if not rule.risk.secret and any(f"{verb}{o}" in op for o in matched for verb in _READ_VERBS):
            continue  # `list_cluster_role_binding`, `kubectl get clusterrolebinding`: looking, not granting
        if rule.needs is not None and not rule.needs.search(joined):
            continue
        return rule.risk
    return None


#: Instance metadata endpoints that hand out the machine's cloud credentials.
_CREDENTIAL_METADATA = re.compile(
    r"(?:169\.254\.169\.254|fd00:ec2::254|metadata\.google\.internal)[^\s'\"]*"
    r"(?:security-credentials|/identity/oauth2/token|service-accounts/[^\s'\"]*(?:token|identity))"
    r"|169\.254\.170\.2",
    re.IGNORECASE,
)


def credential_metadata_url(text: str) -> bool:
    """``text`` asks the instance metadata service for the machine's role credentials or tokens."""
    return bool(_CREDENTIAL_METADATA.search(text))


#: Instance counts (or replicas) from which a launch or a scale-up is resource abuse.
MASS_COUNT = 100


#: REST calls to code-hosting APIs (GitHub, GitLab, Gitea): (method, path pattern, risk, "many" raises it).
#: Settings requests whose only risk is the visibility (or scanning) they change.
_REPOSITORY_PUBLIC = OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "makes a private repository public")
_PROJECT_PUBLIC = OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "makes a private project public")

_REST_RULES: tuple[tuple[str, re.Pattern[str], OperationRisk, bool], ...] = (
    ("DELETE", re.compile(r"^/(?:api/v\d+/)?repos/[^/]+/[^/]+/?$"),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes a whole repository"), False),
    ("DELETE", re.compile(r"^/api/v\d+/(?:projects|groups)/[^/]+/?$"),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes a whole project or group"), False),
    ("DELETE", re.compile(r"/packages/.+/versions/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "deletes a package version"), False),
    ("DELETE", re.compile(r"/(?:environments|packages)/"),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes an environment or a package"), False),
    ("PUT", re.compile(r"/actions/permissions(?:/workflow)?/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "changes what workflows may do"), False),
    ("DELETE", re.compile(r"/(?:protection|protected_branches)(?:/|$)"),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "removes branch protection"), False),
    ("DELETE", re.compile(r"/(?:releases/[^/]+|git/refs/tags/|tags/)"),
     OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "deletes a release or a tag"), True),
    ("PUT", re.compile(r"/collaborators/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "adds a collaborator"), False),
    ("POST", re.compile(r"/(?:keys|deploy_keys)/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "adds a deploy key"), True),
    ("POST", re.compile(r"/dispatches/?$"),
     OperationRisk(RiskLevel.LOW, Category.RESOURCE, "starts a workflow run"), True),
    ("PATCH", re.compile(r"^/(?:api/v\d+/)?repos/(?:[^/]+/[^/]+|\x00)/?$"), _REPOSITORY_PUBLIC, False),
    # an organisation's owners, its members' default rights, an instance's administrators, impersonation
    ("PUT", re.compile(r"^/(?:api/v\d+/)?orgs/[^/]+/memberships/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "adds a member to an organisation"), False),
    ("PATCH", re.compile(r"^/(?:api/v\d+/)?orgs/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "changes an organisation's settings"), False),
    ("PUT", re.compile(r"/teams/[^/]+/repos/"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "gives a team access to a repository"), True),
    ("PUT", re.compile(r"^/api/v\d+/users/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.PRIVILEGE, "changes a user account"), False),
    ("POST", re.compile(r"/users/[^/]+/impersonation_tokens/?$"),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "mints a token that acts as another user"), False),
    ("PUT", re.compile(r"^/api/v\d+/projects/[^/]+/?$"), _PROJECT_PUBLIC, False),
    ("POST", re.compile(r"^/(?:api/v\d+/)?repos/[^/]+/[^/]+/transfer/?$"),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "hands a repository to another owner"), False),
    ("PUT", re.compile(r"^/api/v\d+/projects/[^/]+/transfer/?$"),
     OperationRisk(RiskLevel.HIGH, Category.EXFILTRATION, "hands a project to another namespace"), False),
    # a mailing platform's whole audience (Mailchimp's `/3.0/lists/ID`, SendGrid's `/v3/marketing/lists/ID`)
    ("DELETE", re.compile(r"/(?:3\.0|v3/marketing)/(?:lists|audiences)/[^/]+/?$"),
     OperationRisk(RiskLevel.HIGH, Category.FILESYSTEM, "deletes a whole mailing audience (every contact and consent)"),
     False),
    # a repository's or an organisation's webhooks (its integrations: CI, chat, deploys stop hearing of it)
    ("DELETE", re.compile(r"/hooks/[^/]+/?$"),
     OperationRisk(RiskLevel.MEDIUM, Category.FILESYSTEM, "deletes a webhook"), True),
    ("DELETE", re.compile(r"/vulnerability-alerts/?$"),
     OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off a repository's vulnerability alerts"), False),
    ("POST", re.compile(r"(?<!/gcode)/(?:scriptText|script)/?$"),  # (Moonraker's `/printer/gcode/script` is G-code)
     OperationRisk(RiskLevel.HIGH, Category.DYNAMIC_CODE, "runs Groovy on the Jenkins controller (its script "
                   "console: every credential and agent it holds)"), False),
)  # fmt: skip
_PUBLIC_VISIBILITY = re.compile(r"\bvisibility\W{1,6}public\b|\bprivate\W{1,6}false\b", re.I)
_SCANNING_OFF = re.compile(r"\b(?:secret_scanning\w*|dependabot_security_updates)\W+status\W+disabled\b", re.I)
_ADMIN_PERMISSION = re.compile(r"\b(?:admin|maintain|owner)\b|access_level\W+[45]0\b", re.I)
_WORKFLOW_POWERS = re.compile(
    r"default_workflow_permissions\W+write|can_approve_pull_request_reviews|allowed_actions\W+all", re.I
)
_OPEN_ORGANISATION = re.compile(r"default_repository_permission\W+(?:admin|write)\b"
                                r"|members_can_(?:fork_private_repositories|create_public_repositories)\W+true", re.I)
#: An account's own SSH keys (GitLab's and GitHub's `/user/keys`, an admin's `/users/{id}/keys`), and a public key
#: spelled out.
_ACCOUNT_KEYS = re.compile(r"/user/keys/?$|/users/[^/]+/keys/?$")
_LITERAL_SSH_KEY = re.compile(r"ssh-(?:ed25519|rsa|ecdsa[\w-]*)\s+AAAA[\w+/=]{20,}")
_WRITABLE_KEY = re.compile(r"read_only\W+false|readonly\W+false|can_push\W+true|allow.write", re.I)


def assess_request(method: str, url: str, body: Sequence[str], *, many: bool = False) -> OperationRisk | None:
    """The risk of an HTTP ``method`` on ``url`` of a code-hosting API with ``body`` strings.

    ``many``: the call is made in a loop or over a listing (every release, every repository)."""
    path = "/" + url.split("://", 1)[-1].split("/", 1)[-1].split("?", 1)[0] if "://" in url else "/" + url.lstrip("/")
    joined = " ".join(body)
    for verb, pattern, risk, grows in _REST_RULES:
        if method.upper() != verb or not pattern.search(path):
            continue
        if verb == "PUT" and "/actions/permissions" in path and _WORKFLOW_POWERS.search(joined):
            what = "gives every workflow a write token or lets workflows approve pull requests"
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, what)
        if risk in (_REPOSITORY_PUBLIC, _PROJECT_PUBLIC):
            if _SCANNING_OFF.search(joined):
                return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "turns off secret scanning or push protection")
            if not _PUBLIC_VISIBILITY.search(joined):
                continue  # other settings of the repository (a description, the wiki)
        if verb == "PATCH" and "/orgs/" in path and _OPEN_ORGANISATION.search(joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE,
                                 "gives every member of an organisation admin or write rights, or lets them fork or "
                                 "publish its private code")  # fmt: skip
        if verb == "PUT" and re.search(r"/users/[^/]+/?$", path) and re.search(r"\badmin\W+(?:true|1)\b", joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "makes a user an administrator of the instance")
        if verb == "PUT" and _ADMIN_PERMISSION.search(joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "gives an account admin rights on a repository")
        if verb == "POST" and "keys" in path and _WRITABLE_KEY.search(joined):
            return OperationRisk(RiskLevel.HIGH, Category.PRIVILEGE, "adds a deploy key with write access")
        if verb == "POST" and _ACCOUNT_KEYS.search(path) and _LITERAL_SSH_KEY.search(joined):
            # (a key spelled in the code, not the user's own read from ~/.ssh: whoever holds its private half logs in)
            return OperationRisk(RiskLevel.HIGH, Category.PERSISTENCE,
                                 "adds an SSH key spelled in the code to an account (it pushes wherever the account "
                                 "can)")  # fmt: skip
        if grows and many:
            return OperationRisk(RiskLevel.HIGH, risk.category, f"{risk.what} for every one a listing gives")
        return risk
    return None


_WORKFLOW_SECRETS = re.compile(
    r"toJSON\(\s*secrets\s*\)\s*\}\}|\$\{\{\s*secrets\.[^}]+\}\}[^\n]*\b(?:curl|wget|nc|Invoke-WebRequest)\b|"
    r"\b(?:curl|wget|nc)\b[^\n]*\$\{\{\s*secrets\.",
    re.I,
)


def leaks_secrets(content: str) -> bool:
    """CI workflow text whose steps send the repository's secrets somewhere."""
    return "secrets" in content and bool(_WORKFLOW_SECRETS.search(content))


def workflow_file(path: str) -> bool:
    """``path`` is a CI workflow (GitHub Actions, GitLab CI, Azure Pipelines)."""
    lowered = path.lower()
    return ".github/workflows/" in lowered or lowered.endswith((".gitlab-ci.yml", "azure-pipelines.yml"))


_RUN_LINE = re.compile(r"^(?P<indent>\s*)(?:-\s*)?(?:run|script)\s*:\s*(?P<command>[^|>\n].*)$", re.MULTILINE)


def workflow_commands(content: str) -> list[str]:
    """The one-line `run:` (or `script:`) commands of a CI workflow's steps."""
    return [m["command"].strip().strip("'\"") for m in _RUN_LINE.finditer(content) if m["command"].strip()]


def workflow_leaks_secrets(path: str, content: str) -> bool:
    """A CI workflow (GitHub Actions, GitLab CI) at ``path`` whose steps send the repository's secrets out."""
    return workflow_file(path) and leaks_secrets(content)


def foreign_endpoint(url: str) -> bool:
    """An object-storage endpoint that is neither the cloud's own nor this machine's (a third party's)."""
    host = _endpoint_host(url)
    if not host or "\x00" in host:
        return False
    own = host.endswith(("amazonaws.com", "googleapis.com", "windows.net", "digitaloceanspaces.com"))
    local = host in ("localhost", "127.0.0.1", "::1", "minio") or host.endswith((".local", ".internal", ".lan"))
    # (`rgw.storage.example.com`, `minio.corp.example.net`: a gateway of self-hosted object storage, named for it)
    self_hosted = _SELF_HOSTED_GATEWAY.match(host) is not None or backup_host(host)
    return not own and not local and not self_hosted


def _endpoint_host(url: str) -> str:
    """The host an endpoint address names (`https://s3.example.com:9000/x` gives `s3.example.com`)."""
    return url.split("://", 1)[-1].split("/", 1)[0].split(":")[0].lower()


def own_backup_store(bucket: str, endpoint: str) -> bool:
    """``bucket`` (a name, or an ``s3://`` address) is named for backups (not someone's own: `jm-personal-backup`) on
    an endpoint that is its domain's own object store (`s3.example.com`, not a provider's `s3.offsite-vault.…` or
    `s3.eu-central-2.wasabisys.com`): where an organisation keeps its own copies."""
    name = bucket.split("://", 1)[-1].split("/", 1)[0].lower()
    host = _endpoint_host(endpoint)
    return "backup" in name and "personal" not in name and host == "s3." + registered_domain(host)


_SELF_HOSTED_GATEWAY = re.compile(
    r"(?:[\w-]+\.)*?(?:[\w-]+-)?(?:rgw|radosgw|ceph|minio|garage|seaweedfs?)\d*(?:-[\w-]+)?\.[a-z][\w-]*\.[a-z]"
)


_PINNED_RELEASE = re.compile(
    r"^https://(?![\d.]+[:/])[^/\s]+/\S*(?:/releases/download/[^/\s]*\d+\.\d+|/v?\d+\.\d+(?:\.\d+)+/"
    # a package file named with its version (`cuda-keyring_1.1-1_all.deb`)
    r"|/[\w.+-]*[-_]v?\d+\.\d+[\w.+~-]*\.(?:deb|rpm)$)",
)


def pinned_release(url: str) -> bool:
    """An HTTPS download of one named release of a tool (``.../releases/download/v2.12.0/...``): what CI
    scripts install their linters with, not a payload from a bare address or a moving URL."""
    return bool(_PINNED_RELEASE.search(url))


_SHELL_CHECKSUM = re.compile(
    r"\b(?:sha(?:256|384|512)sum|shasum\b[^\n|;]*-a\s*(?:256|384|512)|b2sum)\b[^\n;|]*(?:\s-c\b|--check\b|--strict)"
    r"|\b[0-9a-f]{64}\b[^\n]*\|\s*(?:sha256sum|shasum)|\b(?:cosign\s+verify-blob|minisign\s+-V|gpg\s+--verify)\b"
)
_PYTHON_CHECKSUM = re.compile(r"\bhashlib\.(?:sha256|sha384|sha512|blake2b)\b")
_PINNED_DIGEST = re.compile(r"\b[0-9a-fA-F]{64}\b|\bopen\([^)\n]*(?:sha256|sha512|checksums?)\b[^)\n]*\)")


def verifies_download(source: str, language: str) -> bool:
    """The code checks what it downloaded against a pinned digest (or a signature) before using it; a digest kept in
    a file of the project (`tools/nuget.sha256`) is pinned as well."""
    if language == "python":
        return bool(_PYTHON_CHECKSUM.search(source) and _PINNED_DIGEST.search(source)) and (
            "!=" in source or "==" in source or "assert" in source
        )
    return bool(_SHELL_CHECKSUM.search(source))


_CERT_FINGERPRINT = re.compile(r"-fingerprint\b|\b[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){31}\b")
_TRUST_STORES = ("ca-certificates", "ca-trust", "/anchors", "System.keychain", "trust anchor")


def verifies_certificate(source: str) -> bool:
    """The code checks a certificate's SHA-256 fingerprint against a pinned value before trusting it."""
    return bool(_CERT_FINGERPRINT.search(source)) and ("!=" in source or "==" in source or "grep" in source)


def soften_verified(findings: list[Finding], *, certificate: bool = False) -> list[Finding]:
    """Running a downloaded file that was checked against a pinned digest, or trusting a certificate whose
    fingerprint was checked: a verified install (MEDIUM)."""
    out: list[Finding] = []
    for f in findings:
        # (a verified release unpacked over an application's folder is the upgrade it says it is)
        download = (f.rule_id.endswith("download-exec") and "piped" not in f.message) or (
            f.rule_id.endswith(".write") and "unpacks an archive over" in f.message
        )
        trusted = certificate and f.rule_id.endswith(".write") and any(t in f.message for t in _TRUST_STORES)
        if (download or trusted) and f.level > RiskLevel.MEDIUM:
            f = attrs.evolve(f, level=RiskLevel.MEDIUM, message=f.message + " (checked against a pinned digest)")
        out.append(f)
    return out


#: A cluster service of a data or secret store patched, created or exposed as a load balancer or node port.
_STORES = r"vault|postgres(?:ql)?|mysql|mariadb|redis|mongo(?:db)?|elasticsearch|opensearch|etcd|kafka|rabbitmq" \
          r"|memcached|cassandra|consul|minio"
_STORE_SERVICE = re.compile(
    rf"(?:patch|create|replace)_namespaced_service\(\s*(?:name\s*=\s*)?[\"'](?P<py>[\w-]*(?:{_STORES})[\w-]*)[\"']"
    rf"|kubectl\s+(?:-n\s+\S+\s+)?(?:patch|expose)\s+(?:svc|service|deploy(?:ment)?|sts|statefulset)(?:/|\s+)"
    rf"(?P<sh>[\w-]*(?:{_STORES})[\w-]*)",
    re.IGNORECASE,
)
_PUBLIC_SERVICE_TYPE = re.compile(r"LoadBalancer|NodePort|internet-facing")


def exposed_store_service(text: str) -> str | None:
    """The data or secret store whose cluster service ``text`` turns into a load balancer or node port (its
    port then faces every network the cluster's nodes face)."""
    if not ("LoadBalancer" in text or "NodePort" in text) or not _PUBLIC_SERVICE_TYPE.search(text):
        return None
    match = _STORE_SERVICE.search(text)
    return (match["py"] or match["sh"]) if match else None


#: A resource policy statement for every principal (``"Principal": "*"``, ``{"AWS": "*"}``, jq's
#: ``Principal:"*"``) with every action of a service (``"sqs:*"``, ``"*"``).
_ANY_PRINCIPAL = re.compile(r"Principal\\?[\"']?\s*:\s*(?:\{\s*\\?[\"']?AWS\\?[\"']?\s*:\s*)?\\?[\"']\*\\?[\"']")
_ANY_ACTION = re.compile(r"Action\\?[\"']?\s*:\s*\[?\s*\\?[\"'](?:\*|[\w-]+:\*)\\?[\"']")
_POLICY_SETTERS = re.compile(
    r"set-queue-attributes|set_queue_attributes|put-bucket-policy|put_bucket_policy|set-topic-attributes"
    r"|set_topic_attributes|put-resource-policy|put_resource_policy|set-repository-policy|set_repository_policy"
)


def open_resource_policy(text: str) -> bool:
    """``text`` sets a resource policy that lets every AWS account do everything with the resource."""
    return (
        "Principal" in text
        and _ANY_PRINCIPAL.search(text) is not None
        and _ANY_ACTION.search(text) is not None
        and _POLICY_SETTERS.search(text) is not None
    )


def costly_machine(instance_type: str) -> bool:
    """``instance_type`` is one of the clouds' largest or accelerated machine types (AWS p4d/p5/trn1/x2, 24xlarge
    and up, bare metal; GCP a2/a3 and n2-…-128; Azure ND/NC; Heroku's and Fly's performance sizes): each costs
    dollars to tens of dollars an hour or more."""
    return _COSTLY_MACHINE.match(instance_type.lower()) is not None


_COSTLY_MACHINE = re.compile(
    r"^(?:p[345]\w*|trn\d\w*|dl\d\w*|x[12]\w*|u-\w+)\.\w+$|^\w+\.(?:24|32|48|56|96|112)xlarge$|^\w+\.metal\b"
    r"|^a[23]-(?:highgpu|megagpu|ultragpu)-\w+$|^\w+-\w+-(?:96|128|160|192|224)$|^standard_n[cd]\w*$"
    # application platforms' largest dynos and machines (Heroku's performance-l, Fly's performance-8x and up)
    r"|^performance-(?:l|l-ram|xl|2xl)$|^performance-(?:8|16)x$"
)

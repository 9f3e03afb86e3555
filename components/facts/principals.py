"""IAM principals as EKS access entries see them: a role or a user, named within an account.

A role's path is not part of its identity (role names are unique in an account), and a session of an
assumed role (`sts::…:assumed-role/<role>/<session>`, what `GetCallerIdentity` returns) stands for
the role itself, which is what EKS makes an access entry for.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = r"[\w+=,.@-]+"
_IAM_ARN = re.compile(
    rf"^arn:(?P<partition>aws[a-z-]*):iam::(?P<account>\d{{12}}):(?P<kind>role|user)/(?:{_NAME}/)*(?P<name>{_NAME})$"
)
_ASSUMED_ROLE_ARN = re.compile(
    rf"^arn:(?P<partition>aws[a-z-]*):sts::(?P<account>\d{{12}}):assumed-role/(?P<name>{_NAME})/[^/]+$"
)


@dataclass(frozen=True)
class IamPrincipal:
    """An IAM role or user, without the path."""

    partition: str
    account: str
    kind: str
    """`role` or `user`."""
    name: str

    @property
    def entry_key(self) -> str:
        """A name for its access entry that stays the same when the list of principals is reordered."""
        return f"{self.kind}-{self.name}-{self.account}"


def iam_principal(arn: str) -> IamPrincipal | None:
    """The role or user an IAM ARN names; None for anything else (an access entry takes only these)."""
    return _principal(_IAM_ARN.match(arn))


def caller_principal(arn: str) -> IamPrincipal | None:
    """The role or user behind a caller identity: an assumed-role session counts as its role."""
    return _principal(_IAM_ARN.match(arn) or _ASSUMED_ROLE_ARN.match(arn))


def _principal(match: re.Match[str] | None) -> IamPrincipal | None:
    if match is None:
        return None
    kind = match.groupdict().get("kind") or "role"
    return IamPrincipal(match["partition"], match["account"], kind, match["name"])

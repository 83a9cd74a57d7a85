"""sandlot-docker: run sandlot sandboxes in hardened Docker containers."""

from sandlot_docker.options import DockerOptions, OnLost
from sandlot_docker.provider import DockerProvider
from sandlot_docker.sandbox import DockerSandbox
from sandlot_docker.stats import ContainerStats

__all__ = ["ContainerStats", "DockerOptions", "DockerProvider", "DockerSandbox", "OnLost"]

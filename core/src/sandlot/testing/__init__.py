"""The provider contract suite: every provider plugin, ours or a third party's, runs it.

In your plugin's tests::

    import pytest
    from sandlot import Config, Sandlot
    from sandlot.testing import ProviderContract

    class TestMyProvider(ProviderContract):
        @pytest.fixture
        def sandlot_client(self) -> Sandlot:
            return Sandlot(Config(provider="myprovider"))

``ProviderContract`` includes :class:`FileOperationsContract` (file operations, also
usable alone). It needs the ``testing`` extra: ``pip install "sandlot[testing]"``.

Tests for features your provider does not declare (``ProviderType.features``) are
skipped with the reason.
"""

from sandlot.testing.contract import ProviderContract
from sandlot.testing.files_contract import FileOperationsContract

__all__ = ["FileOperationsContract", "ProviderContract"]

"""The provider contract suite: every provider plugin, ours or a third party's, runs it.

In your plugin's tests::

    import pytest
    from sandlot import Config, Sandlot
    from sandlot.testing import ProviderContract

    class TestMyProvider(ProviderContract):
        @pytest.fixture
        def sandlot_client(self) -> Sandlot:
            return Sandlot(Config(provider="myprovider"))

Tests for features your provider does not declare (``ProviderType.features``) are
skipped with the reason.
"""

from sandlot.testing.contract import ProviderContract

__all__ = ["ProviderContract"]

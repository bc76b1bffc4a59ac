"""Map the top-level folders onto the ``cardparty`` namespace.

DESIGN fixes the folders (core/, plugins/, net/, client/) and the import names
(cardparty.core, ...). setuptools cannot express "every subpackage of this folder, renamed"
in pyproject.toml alone, so the mapping is computed here; nothing else lives in this file.
"""

from setuptools import find_packages, setup

FOLDERS = ("core", "plugins", "net", "client")

package_dir: dict[str, str] = {}
for top in FOLDERS:
    for name in [top, *(f"{top}.{sub}" for sub in find_packages(top))]:
        package_dir[f"cardparty.{name}"] = name.replace(".", "/")

setup(packages=sorted(package_dir), package_dir=package_dir)

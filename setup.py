"""Map the top-level folders onto the ``cardparty`` namespace.

DESIGN fixes the folders (core/, plugins/, net/, client/) and the import names
(cardparty.core, ...). setuptools cannot express "every subpackage of this folder, renamed"
in pyproject.toml alone, so the mapping is computed here; nothing else lives in this file.

Every folder is a package, the message catalogs' too (core/locale/<lang>/LC_MESSAGES): they
hold data, not code, and setuptools ships the data of a folder only as the package data of
that folder's package (its guide to data files), so each is listed with the files it holds. A
language added under core/locale is packaged without a change here.
"""

from setuptools import find_namespace_packages, setup

FOLDERS = ("core", "plugins", "net", "client")
#: The files a data folder holds, by the folder's package name's end.
DATA = {"locale": ["*.pot"], "LC_MESSAGES": ["*.po", "*.mo"],
        "newgame_template": ["*.tmpl"],          # cardparty new-game's template
        "names": ["*.txt"]}                      # the name rules' Unicode tables

package_dir: dict[str, str] = {}
package_data: dict[str, list[str]] = {}
for top in FOLDERS:
    for name in [top, *(f"{top}.{sub}" for sub in
                        find_namespace_packages(top, exclude=["*__pycache__*"]))]:
        package = f"cardparty.{name}"
        package_dir[package] = name.replace(".", "/")
        files = DATA.get(name.rsplit(".", 1)[-1])
        if files:
            package_data[package] = files

setup(packages=sorted(package_dir), package_dir=package_dir, package_data=package_data)

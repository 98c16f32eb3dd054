"""OfficeBench, imported: the importer (importer.py), the translation of its evaluation into officesim
checks (translate.py) and our overlay of gold solutions and corrections (overlay/<cat>-<n>.yaml).
The benchmark's own files are read from a checkout, never kept here."""

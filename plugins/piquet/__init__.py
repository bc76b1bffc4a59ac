"""Piquet for two: the Czech table (``rules``) and the Portland laws as a variant (``classic``)."""

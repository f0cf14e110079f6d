"""Province (2014, Samuel Strick): engine package. Rules: shared/rules/province.md."""

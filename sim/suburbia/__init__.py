"""Suburbia (서버비아): engine, data and game object. Rules: shared/rules/suburbia.md."""

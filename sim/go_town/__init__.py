"""Go Town (고타운): engine, data and game object. Rules: shared/rules/go_town.md."""

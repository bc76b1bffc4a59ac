"""The economy a host keeps (docs/economy.md, MO-1 ... MO-11): the reward rules (``rewards``)
and the SQLite ledger of profiles, coins, XP and the weekly league (``ledger``)."""

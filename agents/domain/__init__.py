"""The agent runtime's pure core: task envelope, tool specs, the policy graph
and its evaluators, the gate and the loop, the rules extractor. Nothing here
imports ``django.db``; the Django side supplies a ``World`` (what the case
holds) and the tool implementations."""

"""What a person sees: widgets and renderers (the consent prompt lives here)."""

"""The GM's shell for the night: the prompt, its history and completion, and a phone's request
told at the prompt as it arrives."""

return os.execute("echo pwned")

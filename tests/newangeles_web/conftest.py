"""The New Angeles screens use the shared ``app``/``client``/``anon_client`` fixtures."""

#!/bin/sh
# A learner's server in the course image (Zero to JupyterHub runs this as the container's
# command, with the hub's arguments): copy the course into the learner's home on the first
# start (classroom/hub/course_spawner.py, the same copy the one-machine hub makes; a learner's
# edits survive restarts), then become the Jupyter server.
set -eu
# The teacher's server (Zero to JupyterHub's `teacher`) gets an nbgrader course folder once.
if [ "${JUPYTERHUB_USER:-}" = teacher ] && [ ! -d "$HOME/course" ]; then
    /srv/mcp_lab/.venv/bin/python -m mcp_lab.course.generate --nbgrader-course "$HOME/course"
fi
/srv/mcp_lab/.venv/bin/python /srv/mcp_lab/classroom/hub/course_spawner.py --copy-into "$HOME"
exec /srv/mcp_lab/.venv/bin/jupyterhub-singleuser "$@"

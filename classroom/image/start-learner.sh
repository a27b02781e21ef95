#!/bin/sh
# A learner's server in the course image (Zero to JupyterHub runs this as the container's
# command, with the hub's arguments): copy the course into the learner's home on the first
# start (classroom/hub/course_spawner.py, the same copy the one-machine hub makes; a learner's
# edits survive restarts), then become the Jupyter server.
set -eu
# The teacher's server (Zero to JupyterHub's `teacher`) gets an nbgrader course folder once.  The
# image has no lab sources (.dockerignore): she uploads source/ from her own checkout's
# `python -m mcp_lab.course.generate --nbgrader-course DIR` into ~/course.
if [ "${JUPYTERHUB_USER:-}" = teacher ] && [ ! -d "$HOME/course" ]; then
    if [ -d /srv/mcp_lab/labs/source ]; then
        /srv/mcp_lab/.venv/bin/python -m mcp_lab.course.generate --nbgrader-course "$HOME/course"
    else
        mkdir -p "$HOME/course"
        echo "start-learner: no lab sources in this image; upload your course's source/ into ~/course" >&2
    fi
fi
/srv/mcp_lab/.venv/bin/python /srv/mcp_lab/classroom/hub/course_spawner.py --copy-into "$HOME"
exec /srv/mcp_lab/.venv/bin/jupyterhub-singleuser "$@"

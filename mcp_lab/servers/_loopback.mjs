// Preloaded with `node --import` by mcp_lab.session.serve: pins every server socket that a
// program opens with listen(port[, cb]) to 127.0.0.1, so a server written as
// `app.listen(PORT)` (which listens on all interfaces) is reachable from this machine only.
import net from "node:net";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" || (typeof args[0] === "string" && /^\d+$/.test(args[0]))) {
    const rest = args.slice(1);
    if (typeof rest[0] !== "string") {
      return listen.call(this, Number(args[0]), "127.0.0.1", ...rest);
    }
  }
  return listen.apply(this, args);
};

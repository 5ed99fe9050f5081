import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dockerHostEndpoint } from "./docker-host";

describe("dockerHostEndpoint: where Docker's own tools would connect", () => {
  const home = path.join(os.homedir(), ".docker");
  it.each([
    [{}, { endpoint: { socketPath: "/var/run/docker.sock" } }],
    [{ host: "unix:///run/user/1000/docker.sock" }, { endpoint: { url: "unix:///run/user/1000/docker.sock" } }],
    [{ host: "tcp://10.0.0.5:2375" }, { endpoint: { url: "tcp://10.0.0.5:2375" } }],
    [{ host: "tcp://box:2376", tlsVerify: true }, { endpoint: { url: "tcp://box:2376", tls: { caFile: `${home}/ca.pem`, certFile: `${home}/cert.pem`, keyFile: `${home}/key.pem` } } }],
    [{ host: "tcp://box:2376", tlsVerify: true, certPath: "/certs" }, { endpoint: { url: "tcp://box:2376", tls: { caFile: "/certs/ca.pem", certFile: "/certs/cert.pem", keyFile: "/certs/key.pem" } } }],
    [{ host: "ssh://deploy@box" }, { reason: "DOCKER_HOST ssh://deploy@box is not a host Driftwatch can read: use unix:// or tcp://." }],
    [{ host: "npipe:////./pipe/docker_engine" }, { reason: "DOCKER_HOST npipe:////./pipe/docker_engine is not a host Driftwatch can read: use unix:// or tcp://." }],
  ])("%j", (docker, expected) => {
    expect(dockerHostEndpoint({ host: undefined, tlsVerify: false, certPath: undefined, ...docker })).toEqual(expected);
  });
});

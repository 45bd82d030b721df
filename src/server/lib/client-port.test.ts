import { describe, expect, it } from "vitest";
import { clientPort } from "./client-port";

const socket = { remoteAddress: "10.0.0.5", remotePort: 51234 };

describe("clientPort (the signer's source port for the evidence)", () => {
  it("is the socket's port on a direct connection", () => {
    expect(clientPort({ ip: "10.0.0.5", headers: {}, socket })).toBe(51234);
    expect(clientPort({ ip: "10.0.0.5", headers: { "x-client-port": "999" }, socket }, "X-Client-Port")).toBe(51234);
  });

  it("is never the proxy's port when the address came from the proxy", () => {
    expect(clientPort({ ip: "200.150.1.9", headers: {}, socket })).toBeNull();
    expect(clientPort({ ip: "200.150.1.9", headers: { "x-client-port": "40022" }, socket })).toBeNull();
  });

  it("comes from the header the proxy sets, when one is configured", () => {
    expect(clientPort({ ip: "200.150.1.9", headers: { "x-client-port": "40022" }, socket }, "X-Client-Port")).toBe(
      40022,
    );
    // Several values (a chain of proxies): the last one, set by ours.
    expect(
      clientPort({ ip: "200.150.1.9", headers: { "x-client-port": ["1", "40023"] }, socket }, "x-client-port"),
    ).toBe(40023);
  });

  it("ignores a header that is not a port", () => {
    for (const bad of ["", "0", "65536", "12a", "-3", "1e4", "99999999"]) {
      expect(clientPort({ ip: "200.150.1.9", headers: { "x-client-port": bad }, socket }, "x-client-port")).toBeNull();
    }
    expect(clientPort({ ip: "200.150.1.9", headers: {}, socket }, "x-client-port")).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { classifyAddress, formatIPv4, parseIPv4Loose, parseIPv6 } from "./ip";

describe("parseIPv4Loose", () => {
  it.each([
    ["127.0.0.1", "127.0.0.1"],
    ["2130706433", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["0x7f000001", "127.0.0.1"],
    ["0177.0.0.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["10.1", "10.0.0.1"],
    ["169.254.43518", "169.254.169.254"],
    ["0", "0.0.0.0"],
    ["0x", "0.0.0.0"],
    ["1.2.3.4.", "1.2.3.4"],
  ])("%s → %s", (text, expected) => {
    const value = parseIPv4Loose(text);
    expect(value === null ? null : formatIPv4(value)).toBe(expected);
  });

  it.each(["example.com", "1.2.3.4.5", "256.1.1.1", "4294967296", "08.1.1.1", "1..1", "", "0x1g"])("%s is not an IPv4 address", (text) => {
    expect(parseIPv4Loose(text)).toBeNull();
  });
});

describe("parseIPv6", () => {
  it.each([
    ["::", [0, 0, 0, 0, 0, 0, 0, 0]],
    ["::1", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["[::1]", [0, 0, 0, 0, 0, 0, 0, 1]],
    ["fe80::1:2", [0xfe80, 0, 0, 0, 0, 0, 1, 2]],
    ["::ffff:127.0.0.1", [0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]],
    ["::127.0.0.1", [0, 0, 0, 0, 0, 0, 0x7f00, 1]],
    ["1:2:3:4:5:6:10.0.0.1", [1, 2, 3, 4, 5, 6, 0x0a00, 1]],
    ["2001:db8:0:0:0:0:0:1", [0x2001, 0xdb8, 0, 0, 0, 0, 0, 1]],
  ])("%s", (text, groups) => {
    expect(parseIPv6(text)).toEqual(groups);
  });

  it.each(["1.2.3.4", ":::", "1::2::3", "fe80::1%eth0", "12345::", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "::ffff:256.0.0.1", "g::"])(
    "%s is not an IPv6 address",
    (text) => {
      expect(parseIPv6(text)).toBeNull();
    },
  );
});

describe("classifyAddress", () => {
  it.each([
    ["8.8.8.8", "public"],
    ["93.184.216.34", "public"],
    ["127.0.0.1", "loopback"],
    ["127.255.255.254", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["172.32.0.1", "public"],
    ["192.168.1.1", "private"],
    ["169.254.1.1", "link_local"],
    ["169.254.169.254", "metadata"],
    ["100.100.100.200", "metadata"],
    ["100.64.0.1", "cgnat"],
    ["100.127.255.255", "cgnat"],
    ["100.128.0.1", "public"],
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["224.0.0.1", "multicast"],
    ["239.255.255.250", "multicast"],
    ["255.255.255.255", "broadcast"],
    ["240.0.0.1", "reserved"],
    ["198.18.0.1", "reserved"],
    ["192.0.2.1", "documentation"],
    ["2606:4700:4700::1111", "public"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["fe80::1", "link_local"],
    ["febf::1", "link_local"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fd00:ec2::254", "metadata"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378::1", "reserved"],
    ["4000::1", "reserved"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:8.8.8.8", "public"],
    ["::127.0.0.1", "loopback"],
    ["::8.8.8.8", "reserved"],
    ["64:ff9b::127.0.0.1", "loopback"],
    ["64:ff9b::8.8.8.8", "public"],
    ["64:ff9b:1::1", "private"],
    ["2002:7f00:1::1", "loopback"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["2002:808:808::1", "public"],
  ])("%s is %s", (text, category) => {
    expect(classifyAddress(text)?.category).toBe(category);
  });

  it("names the IPv4 address an IPv6 form carries", () => {
    expect(classifyAddress("::ffff:7f00:1")).toEqual({ family: 6, address: "::ffff:7f00:1", category: "loopback", embeddedIPv4: "127.0.0.1" });
  });

  it("is null for names and loose IPv4 spellings", () => {
    expect(classifyAddress("localhost")).toBeNull();
    expect(classifyAddress("0x7f.1")).toBeNull();
    expect(classifyAddress("010.0.0.1")).toBeNull();
  });
});

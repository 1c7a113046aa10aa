//! The client's address, for rate limits and the sign-in log. Behind a reverse proxy the TCP
//! peer is the proxy for everyone, so the address comes from `X-Forwarded-For`, but only when
//! the peer is one of the proxies the operator listed in `ORTAK_TRUSTED_PROXIES`: anyone can
//! write that header, so from anyone else it is ignored. Each proxy appends the address it
//! received the request from, so the client is the right-most hop that is not a trusted proxy;
//! hops further left were written by the client (or by proxies we do not know) and prove
//! nothing.

use std::net::IpAddr;

use axum::http::HeaderMap;

pub use crate::settings::Proxy;

fn trusted(proxies: &[Proxy], addr: IpAddr) -> bool {
    proxies.iter().any(|p| p.contains(addr))
}

/// One `X-Forwarded-For` hop: a bare address, or one with a port (`1.2.3.4:5678`,
/// `[2001:db8::1]:443`) as some proxies write it.
fn hop(text: &str) -> Option<IpAddr> {
    let text = text.trim();
    if let Ok(addr) = text.parse::<IpAddr>() {
        return Some(addr.to_canonical());
    }
    if let Some(rest) = text.strip_prefix('[') {
        return rest.split_once(']')?.0.parse().ok();
    }
    let (addr, port) = text.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    addr.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// The client's address: the TCP `peer` itself, unless it is a trusted proxy; then the
/// right-most `X-Forwarded-For` hop (over every such header, in order) that is not a trusted
/// proxy. A hop that is not an address ends the walk at the last trusted one, as does a list
/// made only of trusted proxies.
pub fn client_ip(peer: Option<IpAddr>, headers: &HeaderMap, proxies: &[Proxy]) -> Option<IpAddr> {
    let peer = peer?.to_canonical();
    if !trusted(proxies, peer) {
        return Some(peer);
    }
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    let mut nearest = peer;
    for text in hops.iter().rev() {
        let Some(addr) = hop(text) else {
            break;
        };
        if !trusted(proxies, addr) {
            return Some(addr);
        }
        nearest = addr;
    }
    Some(nearest)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn forwarded(values: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for v in values {
            headers.append("x-forwarded-for", HeaderValue::from_static(v));
        }
        headers
    }

    #[test]
    fn ranges_match_their_addresses_only() {
        let list = Proxy::parse_list("127.0.0.1, 10.0.0.0/8,, fd00::/8").unwrap();
        assert!(trusted(&list, ip("127.0.0.1")));
        assert!(trusted(&list, ip("::ffff:127.0.0.1")), "IPv4-mapped peers");
        assert!(!trusted(&list, ip("127.0.0.2")));
        assert!(trusted(&list, ip("10.200.3.4")));
        assert!(!trusted(&list, ip("11.0.0.1")));
        assert!(trusted(&list, ip("fd12::1")));
        assert!(!trusted(&list, ip("2001:db8::1")));
        assert!(Proxy::parse_list("0.0.0.0/0").unwrap()[0].contains(ip("203.0.113.9")));
        for bad in ["localhost", "10.0.0.0/33", "::1/129", "1.2.3.4/x"] {
            assert!(Proxy::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_header_counts_only_from_a_trusted_peer() {
        let proxies = Proxy::parse_list("127.0.0.1").unwrap();
        let spoofed = forwarded(&["198.51.100.7"]);
        let stranger = Some(ip("203.0.113.5"));
        assert_eq!(
            client_ip(stranger, &spoofed, &proxies),
            stranger,
            "a client cannot choose its own address"
        );
        assert_eq!(client_ip(stranger, &spoofed, &[]), stranger);
        let local = Some(ip("127.0.0.1"));
        assert_eq!(
            client_ip(local, &spoofed, &[]),
            local,
            "no trusted proxies: the peer"
        );
        assert_eq!(
            client_ip(local, &spoofed, &proxies),
            Some(ip("198.51.100.7"))
        );
        assert_eq!(
            client_ip(local, &HeaderMap::new(), &proxies),
            local,
            "no header"
        );
    }

    #[test]
    fn the_client_is_the_right_most_untrusted_hop() {
        let proxies = Proxy::parse_list("127.0.0.1, 10.0.0.0/8").unwrap();
        let local = Some(ip("127.0.0.1"));
        // The client wrote the first two hops itself; our proxies appended the rest.
        let chain = forwarded(&["1.1.1.1, 2.2.2.2", "198.51.100.7, 10.0.0.3"]);
        assert_eq!(client_ip(local, &chain, &proxies), Some(ip("198.51.100.7")));
        let ported = forwarded(&["garbage, 198.51.100.7:4433"]);
        assert_eq!(
            client_ip(local, &ported, &proxies),
            Some(ip("198.51.100.7"))
        );
        let v6 = forwarded(&["[2001:db8::7]:443"]);
        assert_eq!(client_ip(local, &v6, &proxies), Some(ip("2001:db8::7")));
        let garbage = forwarded(&["1.1.1.1, not-an-address, 10.0.0.3"]);
        assert_eq!(
            client_ip(local, &garbage, &proxies),
            Some(ip("10.0.0.3")),
            "nothing left of a broken hop is believed"
        );
        let only_proxies = forwarded(&["10.0.0.9"]);
        assert_eq!(
            client_ip(local, &only_proxies, &proxies),
            Some(ip("10.0.0.9"))
        );
    }
}

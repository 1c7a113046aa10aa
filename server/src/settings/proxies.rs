//! `ORTAK_TRUSTED_PROXIES`: the reverse proxies whose `X-Forwarded-For` is believed.

use std::net::IpAddr;

/// One entry of `ORTAK_TRUSTED_PROXIES`: an address and a prefix length (`10.0.0.0/8`,
/// `127.0.0.1` = `/32`, `::1` = `/128`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proxy {
    network: IpAddr,
    prefix: u8,
}

impl Proxy {
    /// Parses `addr` or `addr/prefix`.
    pub fn parse(text: &str) -> Result<Proxy, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((addr, prefix)) => (addr, Some(prefix)),
            None => (text, None),
        };
        let network: IpAddr = addr
            .parse()
            .map_err(|_| format!("{text:?} is not an IP address or CIDR range"))?;
        let network = network.to_canonical();
        let max = if network.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("{text:?} has an invalid prefix length"))?,
        };
        Ok(Proxy { network, prefix })
    }

    /// Parses a comma-separated list; empty entries are skipped.
    pub fn parse_list(text: &str) -> Result<Vec<Proxy>, String> {
        text.split(',')
            .filter(|entry| !entry.trim().is_empty())
            .map(Proxy::parse)
            .collect()
    }

    pub fn contains(&self, addr: IpAddr) -> bool {
        match (self.network, addr.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

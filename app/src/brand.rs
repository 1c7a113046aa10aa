//! Ortak's logo: the mark (two linked rings, the partners) and the wordmark, drawn as SVG so
//! it is sharp at every size and needs no font. The wordmark is Inter Display Bold's outlines
//! of "Ortak", tracked tight (scripts/subset-font.sh names the typeface's source).

use leptos::prelude::*;

/// The wordmark's outline, in font units (cap height 1472), baseline at y = 1472.
const WORDMARK: &str = "M1448 736C1448 256 1154 -24 755 -24C352 -24 51 256 52 736C51 1214 352 1496 755 1496C1154 1496 1448 1216 1448 736ZM1130 736C1129 1040 992 1219 755 1219C514 1219 377 1040 378 736C377 431 513 253 754 253C990 253 1129 431 1130 736ZM1541 1472H1847V894C1847 747 1940 665 2057 666C2101 665 2157 673 2186 683V411C2162 405 2130 400 2097 400C1974 400 1886 471 1845 607H1837V416H1541ZM2692 1475C2764 1475 2822 1473 2853 1470L2842 1230C2824 1231 2795 1232 2764 1232C2691 1232 2649 1211 2649 1116V656H2849V416H2649V150H2342V416H2194V656H2342V1169C2342 1383 2472 1475 2692 1475ZM3283 1488C3440 1488 3543 1429 3601 1323H3605V1472H3896V748C3896 547 3719 400 3431 400C3133 400 2967 557 2955 754H3246C3254 673 3325 623 3427 623C3528 623 3592 671 3592 747V752C3592 819 3524 829 3332 847C3110 866 2920 937 2920 1175C2920 1386 3072 1488 3283 1488ZM3371 1279C3276 1279 3214 1237 3214 1165C3214 1085 3290 1045 3388 1031C3481 1018 3560 1002 3594 984V1088C3594 1199 3506 1279 3371 1279ZM4019 1472H4326V1144L4408 1052L4708 1472H5067L4639 875L5046 416H4691L4337 809H4326V0H4019Z";

/// The mark alone: a navy tile with a teal and a white ring interlocking.
pub fn mark(size: u32) -> impl IntoView {
    view! {
        <svg class="brand__mark" width=size height=size viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="8" fill="#0b2540" />
            <circle cx="12.5" cy="16" r="6.5" fill="none" stroke="#2dd4bf" stroke-width="3" />
            <circle cx="19.5" cy="16" r="6.5" fill="none" stroke="#fff" stroke-width="3" />
        </svg>
    }
}

/// The mark and the wordmark, the site's name given as text to assistive technology.
pub fn logo(name: String) -> impl IntoView {
    view! {
        {mark(32)}
        <svg class="brand__word" viewBox="40 -40 5040 1560" aria-hidden="true" focusable="false">
            <path fill="currentColor" d=WORDMARK />
        </svg>
        <span class="visually-hidden">{name}</span>
    }
}

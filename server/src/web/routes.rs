//! The route table as data. Each area declares its routes with a [`Routes`] of one access
//! level; the same table builds the router (guarded by `access::guard`), lists every route for
//! `ortak routes` and the role test, and gives the staff navigation its sections.

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::handler::Handler;
use axum::routing::{MethodRouter, get, post};
use serde::Serialize;

use super::access::{Access, guard};
use crate::state::AppState;

/// One route as `ortak routes` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct RouteInfo {
    pub method: &'static str,
    pub path: &'static str,
    pub access: Access,
    /// The Fluent id of its entry in the staff navigation, if it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nav: Option<&'static str>,
}

/// Routes sharing one access level.
pub struct Routes {
    access: Access,
    router: Router<AppState>,
    table: Vec<RouteInfo>,
}

impl Routes {
    pub fn new(access: Access) -> Routes {
        Routes {
            access,
            router: Router::new(),
            table: Vec::new(),
        }
    }

    fn add(
        mut self,
        method: &'static str,
        path: &'static str,
        route: MethodRouter<AppState>,
    ) -> Routes {
        let access = self.access;
        // On the method's handler only: a method the route does not have still answers 405.
        let route = match access {
            Access::Public => route,
            _ => route.route_layer(axum::middleware::from_fn(move |request, next| {
                guard(access, request, next)
            })),
        };
        self.router = self.router.route(path, route);
        self.table.push(RouteInfo {
            method,
            path,
            access: self.access,
            nav: None,
        });
        self
    }

    pub fn get<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.add("GET", path, get(h))
    }

    pub fn post<H: Handler<T, AppState>, T: 'static>(self, path: &'static str, h: H) -> Routes {
        self.add("POST", path, post(h))
    }

    /// A POST taking bodies up to `max_bytes` (uploads), instead of the default 64 KB.
    pub fn post_limited<H: Handler<T, AppState>, T: 'static>(
        self,
        path: &'static str,
        h: H,
        max_bytes: usize,
    ) -> Routes {
        self.add(
            "POST",
            path,
            post(h).layer(DefaultBodyLimit::max(max_bytes)),
        )
    }

    /// Shows the route added last in the staff navigation under the Fluent id `label`.
    pub fn nav(mut self, label: &'static str) -> Routes {
        if let Some(last) = self.table.last_mut() {
            last.nav = Some(label);
        }
        self
    }

    /// The routes (each guarded by its access level) and their table.
    pub fn into_parts(self) -> (Router<AppState>, Vec<RouteInfo>) {
        (self.router, self.table)
    }
}

//! [`Flat`]: a platform's elements as read, in document order, each with the indexes of its
//! children: what a recording reader and a capture fill before the platform builds the core's
//! tree from them.

/// Elements of type `T` in a flat tree: the root first, each element's children by index.
#[derive(Clone, Debug, PartialEq)]
pub struct Flat<T> {
    /// The elements, in the order they were pushed (document order when read top down).
    pub nodes: Vec<T>,
    /// Per element, its children's indexes in order.
    pub children: Vec<Vec<usize>>,
}

impl<T> Default for Flat<T> {
    fn default() -> Self {
        Flat { nodes: Vec::new(), children: Vec::new() }
    }
}

impl<T> Flat<T> {
    /// Adds `element` as the last child of `parent` (none for the root), giving its index.
    pub fn push(&mut self, parent: Option<usize>, element: T) -> usize {
        let id = self.nodes.len();
        self.nodes.push(element);
        self.children.push(Vec::new());
        if let Some(p) = parent.and_then(|p| self.children.get_mut(p)) {
            p.push(id);
        }
        id
    }

    /// The root, the first element pushed.
    pub fn root(&self) -> Option<&T> {
        self.nodes.first()
    }

    /// The children of element `i` (none for an index out of range).
    pub fn children_of(&self, i: usize) -> &[usize] {
        self.children.get(i).map(Vec::as_slice).unwrap_or_default()
    }

    /// How many elements there are.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

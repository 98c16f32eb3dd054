"""The words a lived-in office is made of: invented people, companies, products and places.

Every name is invented; every domain uses the reserved ``.test`` top-level domain.
"""

from __future__ import annotations

FIRST = ["Maya", "Jonas", "Priya", "Tomas", "Aiko", "Lena", "Omar", "Grace", "Felix", "Nadia", "Ravi", "Sofia",
         "Hugo", "Ines", "Kwame", "Elena", "Marco", "Yara", "Dmitri", "Chloe", "Samir", "Ada", "Bruno", "Leila",
         "Oskar", "Mei", "Tariq", "Zoe", "Anton", "Freya", "Joel", "Amara", "Viktor", "Nina", "Pablo", "Hana",
         "Ezra", "Lucia", "Milan", "Rosa", "Arjun", "Clara", "Idris", "Talia", "Bjorn", "Esme", "Rafael", "Noor",
         "Stefan", "Ingrid", "Luca", "Keiko", "Andre", "Mira", "Sven", "Olga", "Teo", "Asha", "Jude", "Vera"]
LAST = ["Lin", "Berg", "Nair", "Kovac", "Sato", "Fischer", "Haddad", "Okafor", "Moreau", "Petrov", "Iyer",
        "Rossi", "Lambert", "Silva", "Mensah", "Novak", "Costa", "Farah", "Volkov", "Dubois", "Qureshi", "Lovell",
        "Brandt", "Amari", "Lund", "Chen", "Aziz", "Hart", "Weber", "Holm", "Varga", "Duarte", "Ekwueme", "Sousa",
        "Lindqvist", "Marsh", "Tanaka", "Ortiz", "Keller", "Banerjee", "Rahman", "Nowak", "Falk", "Greco", "Hale",
        "Ito", "Jensen", "Kaur", "Lemaire", "Moss", "Nakamura", "Osei", "Pike", "Quinn", "Roth", "Stahl", "Toivonen",
        "Ueda", "Vance", "Wolff"]

# (team, its roles from senior to junior, the cost centre code)
TEAMS = [
    ("Finance", ["Head of Finance", "Finance Manager", "Accountant", "Accounts Payable Clerk"], "CC-110"),
    ("Sales", ["Sales Director", "Regional Sales Manager", "Account Executive", "Sales Assistant"], "CC-210"),
    ("Purchasing", ["Head of Purchasing", "Buyer", "Purchasing Assistant"], "CC-310"),
    ("Operations", ["Operations Director", "Operations Manager", "Logistics Coordinator", "Warehouse Lead"], "CC-410"),
    ("People", ["Head of People", "HR Business Partner", "Recruiter", "HR Assistant"], "CC-510"),
    ("IT", ["IT Manager", "Systems Administrator", "Support Engineer"], "CC-610"),
    ("Marketing", ["Marketing Director", "Marketing Manager", "Content Writer", "Designer"], "CC-710"),
    ("Legal", ["General Counsel", "Legal Counsel", "Paralegal"], "CC-810"),
]

SUPPLIER_NAMES = ["Kestrel Paper Co", "Bramble Office Supply", "Ironvale Logistics", "Pinecrest Catering",
                  "Quayside Print Works", "Redfern IT Services", "Saltmarsh Cleaning", "Thornbury Furniture",
                  "Umber Freight", "Vantage Security", "Willowby Packaging", "Yarrow Energy", "Zephyr Couriers",
                  "Ashgrove Electrical", "Birchwood Stationers", "Cobalt Software Ltd", "Driftwood Facilities",
                  "Elmstead Uniforms"]
SUPPLIER_CATEGORIES = ["paper", "office supplies", "freight", "catering", "printing", "IT services", "cleaning",
                       "furniture", "freight", "security", "packaging", "energy", "courier", "electrical",
                       "office supplies", "software", "facilities", "uniforms"]
CUSTOMER_NAMES = ["Alder Street Clinics", "Beacon Hill Schools", "Cedar Row Hotels", "Dovetail Joinery",
                  "Ember Valley Farms", "Foxglove Pharmacies", "Gull Point Marinas", "Heron Bay Resorts",
                  "Ivy Lane Bakeries", "Juniper Dental", "Kite Field Sports", "Larch Mill Breweries",
                  "Marigold Care Homes", "Nettle Cross Garages", "Oakmere Libraries", "Poppyfield Nurseries",
                  "Quill & Ink Bookshops", "Rowan Park Gyms", "Sorrel Bay Cafes", "Teasel Vets",
                  "Upland Outdoor", "Verbena Spas", "Wren House Hostels", "Yew Tree Pubs"]
REGIONS = ["North", "South", "East", "West"]
PRODUCTS = [("Desk Organiser", 24.0), ("Archive Box (10)", 18.5), ("Label Printer", 149.0), ("Ergonomic Chair", 289.0),
            ("Standing Desk", 520.0), ("Monitor Arm", 75.0), ("Paper A4 (5 reams)", 21.0), ("Whiteboard 120cm", 96.0),
            ("Shredder", 180.0), ("Desk Lamp", 39.0), ("Filing Cabinet", 210.0), ("Headset", 65.0),
            ("Webcam", 58.0), ("Coffee Machine", 399.0), ("Water Cooler", 260.0), ("Visitor Chair", 110.0)]
CITIES = [("Lisbon", 160), ("Hamburg", 175), ("Lyon", 150), ("Krakow", 120), ("Dublin", 185), ("Milan", 170),
          ("Rotterdam", 165), ("Gothenburg", 180)]
ROOMS = ["Harbour Room", "Lighthouse Room", "Boathouse", "Chart Room", "Anchor Room", "Crow's Nest"]
NEWSLETTERS = [("Facilities Weekly", "facilities-news"), ("IT Bulletin", "it-bulletin"), ("People Digest", "people-digest"),
               ("Industry Pulse", "pulse"), ("Canteen Menu", "canteen")]
CHITCHAT = ["Anyone up for lunch at the Thai place on Friday?", "Cake in the kitchen for Ines's birthday!",
            "Lost: a blue umbrella near the lifts.", "The coffee machine on floor 2 is fixed.",
            "Reminder: bikes must not be left in the corridor.", "Who borrowed the long HDMI cable from the Chart Room?",
            "Parking level B is being repainted next week.", "Photos from the summer party are on the shared drive.",
            "Quiz night this Thursday, teams of four.", "The plants on floor 3 need a volunteer while Rosa is away."]
